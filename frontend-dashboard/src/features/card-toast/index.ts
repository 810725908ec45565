// The cards' toasts (spec §8): the dashboard's features show them through the host's toast area, or in the card
// when the remote runs on its own. App provides the host's area (HostToastContext).
export { HostToastContext, useCardToast, type CardToast } from './useCardToast';
