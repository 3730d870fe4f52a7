/**
 * The merchant module's door (issue 45 §1–2): its manifest and what other modules may use of it.
 * A module imports it from here, never from its files (`npm run lint:deps`).
 */
import { defineModule } from '../contract';
import { merchantRoutes } from './merchant.routes';
import { registerApprovalKind } from '../team';
import { closeHeldBankRequest } from './bank-request.service';

/** The merchant's own record, its detail and bank-account change requests. */
export const manifest = defineModule({
  name: 'merchant',
  routes: merchantRoutes,
  // Four eyes: a bank change held for the merchant's approval moves on in the decision's transaction.
  init: () => registerApprovalKind('bank_change', { close: closeHeldBankRequest }),
});

// What other modules use of it (issue 45 §2: through this door only).
export { decideBankRequest } from './bank-request.service';
export { maskAccount, merchantFees } from './merchant.repo';
