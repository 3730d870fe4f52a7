/** The proof screen of a transfer id (date.merchant.businessLine.currency). */
export const proofPathOf = (transferId: string) => `/report/transfer/proof/${transferId}`;
