export { logout } from './api/logout.ts';
export { passwordWeaknessOf, preloadPasswordStrength } from './password-strength.ts';
