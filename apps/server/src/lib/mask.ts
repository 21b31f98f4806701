/*
 * What a recipient looks like in the dashboard (the delivery log, the simulation's sample): enough to recognise an
 * address one knows, not enough to collect it.
 */

/** m***a@e***.com.br */
export function maskEmail(email: string) {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const dot = domain.indexOf('.');
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const rest = dot > 0 ? domain.slice(dot) : '';
  const hide = (s: string) => (s.length <= 2 ? `${s[0] ?? ''}***` : `${s[0]}***${s[s.length - 1]}`);
  return `${hide(local)}@${hide(host)}${rest}`;
}

/** (11) *****-4321 */
export function maskPhone(phone: string) {
  const digits = phone.replace(/\D/g, '');
  if (digits.length < 6) return '***';
  const national = digits.length > 11 && digits.startsWith('55') ? digits.slice(2) : digits;
  return `(${national.slice(0, 2)}) ${'*'.repeat(Math.max(1, national.length - 6))}-${national.slice(-4)}`;
}

/** The recipient of a message of `channelType`: masked e-mail or phone for those channels, the visitor id otherwise. */
export function recipientOf(
  channelType: string,
  person: { visitor_id: string; email: string | null; phone: string | null },
) {
  if ((channelType === 'AWS_SES' || channelType === 'AKNA') && person.email) return maskEmail(person.email);
  if (channelType === 'ZENVIA' && person.phone) return maskPhone(person.phone);
  return person.visitor_id;
}
