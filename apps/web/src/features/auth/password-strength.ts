/*
 * The strength rule the server applies, run in the browser so the advice shows under the field before
 * sending. Its dictionaries (about 1 MB) load on demand, when a password field is first focused.
 */
let loading: Promise<typeof import('@impeto/shared/password-strength')> | undefined;

export const preloadPasswordStrength = () => {
  loading ??= import('@impeto/shared/password-strength');
  return loading;
};

type Person = Parameters<typeof import('@impeto/shared/password-strength').passwordUserInputs>[0];

/** Why the password cannot be used (pt-BR), or undefined; `person`'s names and e-mail count against it. */
export async function passwordWeaknessOf(password: string, person: Person = {}) {
  const { passwordWeakness, passwordUserInputs } = await preloadPasswordStrength();
  return passwordWeakness(password, passwordUserInputs(person));
}
