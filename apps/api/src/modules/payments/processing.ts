/** '04' or empty: the gateway has not decided yet (domain.md, "Transactions"). */
export const isProcessing = (gw: string | null | undefined) => gw === null || gw === undefined || gw === '' || gw === '04';
