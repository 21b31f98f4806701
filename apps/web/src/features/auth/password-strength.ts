/*
 * The strength rule the server applies, run in the browser so the advice shows under the field before
 * sending. Its dictionaries (about 1 MB) load on demand, when a password field is first focused.
 */
let loading: Promise<typeof import('@impeto/shared/password-strength')> | undefined;

export const preloadPasswordStrength = () => {
  loading ??= import('@impeto/shared/password-strength');
  return loading;
};

/** Why the password is too easy to guess (pt-BR), or undefined. */
export async function passwordWeaknessOf(password: string, userInputs: string[] = []) {
  const { passwordWeakness } = await preloadPasswordStrength();
  return passwordWeakness(password, userInputs);
}
