import { getStates, isValidCnpj } from '@brazilian-utils/brazilian-utils';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat.js';
import { requiredText } from '../auth/auth.schema.ts';
import { msg } from '../messages.ts';
import { z } from '../zod.ts';

dayjs.extend(customParseFormat);

const m = msg.company;

export const onlyDigits = (value: string) => value.replace(/\D/g, '');

/** 14 digits, not all the same digit, both check digits right; masked (99.999.999/9999-99) or bare. */
export const isCnpj = (value: string) => {
  if (!/^[\d.\-/\s]+$/.test(value)) return false;
  const digits = onlyDigits(value);
  return digits.length === 14 && !/^(\d)\1{13}$/.test(digits) && isValidCnpj(digits);
};

/** A real calendar day written dd/mm/yyyy (leap years included). */
export const isBrDate = (value: string) =>
  /^\d{2}\/\d{2}\/\d{4}$/.test(value) && dayjs(value, 'DD/MM/YYYY', true).isValid();

export const BR_STATE_CODES: readonly string[] = getStates().map((s) => s.code);

/** Phone digits only: DDD + 8 digits (landline) or + 9 digits (mobile), READINGS A-14. */
export const isBrPhone = (digits: string) => /^[1-9]\d{9,10}$/.test(digits);

const digitsOf = (required: string, invalid: string, valid: (digits: string) => boolean) =>
  requiredText(required).pipe(
    z
      .string()
      .refine((v) => /^[\d\s().\-/+]+$/.test(v), invalid)
      .transform(onlyDigits)
      .refine(valid, invalid),
  );

const text = (required: string, max = 160) => requiredText(required).pipe(z.string().max(max, m.tooLong(max)));

/** Filled later by billing; the company form always sends them as null (spec doc 1 §3). */
const alwaysNull = z
  .null({ error: m.billingNull })
  .optional()
  .transform(() => null);

/** The company form of doc 1 §3/§5: the server route, the web form and the type share it. */
export const companyFormFields = z.object(
  {
    document: z.object(
      {
        type: z.literal('cnpj', { error: m.cnpjInvalid }).default('cnpj'),
        number: requiredText(m.cnpjRequired).pipe(z.string().refine(isCnpj, m.cnpjInvalid)).transform(onlyDigits),
      },
      { error: m.cnpjRequired },
    ),
    inscricao_municipal: text(m.inscricaoMunicipalRequired, 40),
    razao_social: text(m.razaoSocialRequired),
    email: requiredText(m.emailRequired).pipe(z.email(m.emailInvalid).max(254, m.emailInvalid)),
    endereco: text(m.enderecoRequired),
    numero: text(m.numeroRequired, 20),
    bairro: text(m.bairroRequired, 100),
    zip_code: digitsOf(m.zipRequired, m.zipInvalid, (d) => d.length === 8),
    cidade: text(m.cidadeRequired, 100),
    uf: requiredText(m.ufRequired).pipe(
      z
        .string()
        .transform((v) => v.toUpperCase())
        .refine((v) => BR_STATE_CODES.includes(v), m.ufInvalid),
    ),
    country: text(m.countryRequired, 60),
    telefone: digitsOf(m.telefoneRequired, m.telefoneInvalid, isBrPhone),
    dt_birthday: requiredText(m.dtBirthdayRequired).pipe(z.string().refine(isBrDate, m.dtBirthdayInvalid)),
    dt_payment: alwaysNull,
    type_payment: alwaysNull,
    credit_card: alwaysNull,
    notes: alwaysNull,
  },
  { error: m.formRequired },
);
export type CompanyForm = z.output<typeof companyFormFields>;
export type CompanyFormInput = z.input<typeof companyFormFields>;

/** Body of POST /company/:id/step2 and PUT /company/update/:id (READINGS A-13). */
export const companyFormSchema = z.object({ company: companyFormFields }, { error: m.formRequired });
export type CompanyFormBody = z.input<typeof companyFormSchema>;

/** GET /company/list/:id: the company and its form; the form fields are null until first saved. */
export interface CompanyData {
  uuid: string;
  name: string;
  document: { type: 'cnpj'; number: string | null };
  inscricao_municipal: string | null;
  razao_social: string | null;
  email: string | null;
  endereco: string | null;
  numero: string | null;
  bairro: string | null;
  zip_code: string | null;
  cidade: string | null;
  uf: string | null;
  country: string | null;
  telefone: string | null;
  dt_birthday: string | null;
  dt_payment: null;
  type_payment: null;
  credit_card: null;
  notes: null;
}
