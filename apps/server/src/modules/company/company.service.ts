import { type CompanyData, type CompanyForm, msg } from '@impeto/shared';
import type { companies } from '../../db/schema.ts';
import type { AppContext } from '../../lib/context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import * as q from './company.queries.ts';

const FORM_KEYS = [
  'inscricao_municipal',
  'razao_social',
  'email',
  'endereco',
  'numero',
  'bairro',
  'zip_code',
  'cidade',
  'uf',
  'country',
  'telefone',
  'dt_birthday',
] as const;

const textOf = (value: unknown) => (typeof value === 'string' ? value : null);

export const toCompanyData = (row: typeof companies.$inferSelect): CompanyData => {
  const reg = row.registration ?? {};
  const document = (reg.document ?? {}) as { number?: unknown };
  const fields = Object.fromEntries(FORM_KEYS.map((k) => [k, textOf(reg[k])])) as Record<
    (typeof FORM_KEYS)[number],
    string | null
  >;
  return {
    uuid: row.uuid,
    name: row.name,
    document: { type: 'cnpj', number: textOf(document.number) },
    ...fields,
    dt_payment: null,
    type_payment: null,
    credit_card: null,
    notes: null,
  };
};

/** The path names a company; only the caller's own is found, any other uuid answers 404 alike. */
async function requireOwnCompany(ctx: AppContext, callerCompany: string, companyUuid: string) {
  const company = callerCompany === companyUuid ? await q.findCompany(ctx.db, companyUuid) : undefined;
  if (!company) throw notFound(msg.company.notFound, 'COMPANY_NOT_FOUND');
  return company;
}

export async function getCompany(ctx: AppContext, callerCompany: string, companyUuid: string) {
  return toCompanyData(await requireOwnCompany(ctx, callerCompany, companyUuid));
}

/**
 * Add mode (POST /company/:id/step2) saves the form the first time; edit mode (PUT /company/update/:id)
 * replaces it (READINGS A-13). A second add is refused so a stale add modal cannot overwrite saved data.
 */
export async function saveCompanyForm(
  ctx: AppContext,
  callerCompany: string,
  companyUuid: string,
  form: CompanyForm,
  mode: 'add' | 'edit',
) {
  const company = await requireOwnCompany(ctx, callerCompany, companyUuid);
  if (mode === 'add' && company.registration) {
    throw new AppError('COMPANY_ALREADY_REGISTERED', 409, msg.company.alreadySaved);
  }
  await q.saveRegistration(ctx.db, companyUuid, { ...form });
  return toCompanyData({ ...company, registration: { ...form } });
}
