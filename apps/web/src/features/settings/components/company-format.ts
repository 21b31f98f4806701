import { type CompanyData, onlyDigits } from '@impeto/shared';

const pattern = (digits: string, re: RegExp, out: string) => (re.test(digits) ? digits.replace(re, out) : digits);

export const formatCnpj = (value: string | null) =>
  pattern(onlyDigits(value ?? ''), /^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5');

export const formatCep = (value: string | null) => pattern(onlyDigits(value ?? ''), /^(\d{5})(\d{3})$/, '$1-$2');

/** (99) 9999-9999 for 10 digits, (99) 99999-9999 for 11 (READINGS A-14). */
export function formatPhone(value: string | null) {
  const digits = onlyDigits(value ?? '');
  if (digits.length === 11) return digits.replace(/^(\d{2})(\d{5})(\d{4})$/, '($1) $2-$3');
  if (digits.length === 10) return digits.replace(/^(\d{2})(\d{4})(\d{4})$/, '($1) $2-$3');
  return digits;
}

/** The registration exists once the form was saved; until then every field is null. */
export const isCompanyRegistered = (company: CompanyData) => Boolean(company.document?.number);
