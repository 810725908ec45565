// The payments module's only door. Other modules use these, never the files behind them.
import type { RouteSpec } from '../../platform/http/route';
import { paymentsRoutes } from './payments.routes';
export { paymentsRouter } from './payments.routes';
/** The module's routes as declared beside their handlers (api-docs.ts documents them). */
export const paymentsRouteSpecs: RouteSpec[] = Object.values(paymentsRoutes);
export { createPaymentProviders, type PaymentProviders, type PaymentProviderName } from './providers';

// Saved cards: what autopilot shows and charges (the card itself is saved through this module's routes).
export { savedCardOf, savedCardsSavedAt, chargeSavedCard, type SavedCardCharge, type SavedCardChargeOutcome } from './saved-cards.service';
export type { PaymentsContext } from './payments.service';
// Credits for under-delivery (DESIGN §7): the reports module grants them in its settlement's transaction.
export { grantCredits, creditBalanceCents, listCredits, creditsOfCampaigns, type CreditGrant, type GrantedCredit } from './credits/credits.service';
export { refundCreditJob } from './credits/refund-credit.job';
// One credit's refund, as its job makes it (ops and tests run it directly).
export { refundCredit } from './credits/refund-credit';
