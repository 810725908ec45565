// The payments module's only door. Other modules use these, never the files behind them.
export { paymentsRouter } from './payments.routes';
export { createPaymentProviders, type PaymentProviders, type PaymentProviderName } from './providers';
export { localAuthenticateSchema, localConfirmSchema } from './payments.schemas';
