// The payments module's only door. Other modules use these, never the files behind them.
export { paymentsRouter } from './payments.routes';
export { createPaymentProviders, type PaymentProviders, type PaymentProviderName } from './providers';
export { localAuthenticateSchema, localConfirmSchema } from './payments.schemas';

// Credits for under-delivery (DESIGN §7): the reports module grants them in its settlement's transaction.
export { grantCredits, creditBalanceCents, listCredits, creditsOfCampaigns, type CreditGrant, type GrantedCredit } from './credits/credits.service';
export { refundCreditJob } from './credits/refund-credit.job';
// One credit's refund, as its job makes it (ops and tests run it directly).
export { refundCredit } from './credits/refund-credit';
