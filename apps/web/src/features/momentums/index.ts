// What other features (campaigns) may use: the list and the form, parameterised by type.
export { MomentumFormPage } from './components/momentum-form-page.tsx';
export { MomentumList } from './components/momentum-list.tsx';
