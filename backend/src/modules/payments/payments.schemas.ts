// The local test payments' request bodies are declared in contracts (the checkout's card form sends them).
export { localAuthenticateSchema, localConfirmSchema, type LocalAuthenticatePayload, type LocalConfirmPayload, type LocalPaymentAnswer } from '@app/contracts';
