// What other features (campaigns, GCD) may use: the list, the form, one item and its save, by type.

export { useMomentum } from './api/get-momentum.ts';
export { type MomentumBody, useSaveMomentum } from './api/save-momentum.ts';
export { MomentumFormPage } from './components/momentum-form-page.tsx';
export { MomentumList } from './components/momentum-list.tsx';
export { displayStatus, listPath, STATUS_COLORS, statusLabel } from './components/momentum-status.ts';
