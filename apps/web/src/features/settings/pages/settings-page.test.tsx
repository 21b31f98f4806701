import { msg } from '@impeto/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { COMPANY, type FetchHandler, ok, renderPage } from '../../../test/render-page.tsx';

const emptyCompany = {
  uuid: COMPANY,
  name: 'Aurora Modas',
  document: { type: 'cnpj', number: null },
  inscricao_municipal: null,
  razao_social: null,
  email: null,
  endereco: null,
  numero: null,
  bairro: null,
  zip_code: null,
  cidade: null,
  uf: null,
  country: null,
  telefone: null,
  dt_birthday: null,
  dt_payment: null,
  type_payment: null,
  credit_card: null,
  notes: null,
};

const savedCompany = {
  ...emptyCompany,
  document: { type: 'cnpj', number: '11222333000181' },
  inscricao_municipal: '12345',
  razao_social: 'Aurora Modas Ltda',
  email: 'financeiro@aurora.com.br',
  endereco: 'Rua das Flores',
  numero: '100',
  bairro: 'Centro',
  zip_code: '01001000',
  cidade: 'São Paulo',
  uf: 'SP',
  country: 'Brasil',
  telefone: '11987654321',
  dt_birthday: '10/05/2015',
};

function serve(company: unknown): FetchHandler {
  return (url, init) => {
    if (url === `/api/company/list/${COMPANY}`) return ok(company);
    if (url === `/api/company/${COMPANY}/step2` && init.method === 'POST')
      return { body: { message: msg.company.saved, data: savedCompany } };
    return undefined;
  };
}

async function openAddModal() {
  const { calls } = renderPage('/settings', { session: true, fetch: serve(emptyCompany) });
  expect(await screen.findByText('Cadastro da empresa incompleto', {}, { timeout: 5000 })).toBeTruthy();
  await userEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
  return { calls, dialog: await screen.findByRole('dialog', { name: 'Cadastrar dados da empresa' }) };
}

describe('company form', () => {
  it('requires every field with the shared messages and sends nothing', async () => {
    const { calls, dialog } = await openAddModal();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cadastrar' }));
    for (const message of [
      msg.company.cnpjRequired,
      msg.company.inscricaoMunicipalRequired,
      msg.company.razaoSocialRequired,
      msg.company.emailRequired,
      msg.company.zipRequired,
      msg.company.telefoneRequired,
      msg.company.dtBirthdayRequired,
      msg.company.ufRequired,
    ])
      expect(within(dialog).getByText(message)).toBeTruthy();
    expect(calls.some((c) => c.url.includes('/step2'))).toBe(false);
  });

  it('refuses 11.111.111/1111-11 and 29/02/2023, accepts 11.222.333/0001-81', async () => {
    const { dialog } = await openAddModal();
    const user = userEvent.setup();
    const cnpj = within(dialog).getByLabelText(/CNPJ/) as HTMLInputElement;
    await user.type(cnpj, '11111111111111');
    expect(cnpj.value).toBe('11.111.111/1111-11');
    await user.type(within(dialog).getByLabelText(/Data de fundação/), '29022023');
    await user.click(within(dialog).getByRole('button', { name: 'Cadastrar' }));
    expect(await within(dialog).findByText(msg.company.cnpjInvalid)).toBeTruthy();
    expect(within(dialog).getByText(msg.company.dtBirthdayInvalid)).toBeTruthy();

    await user.clear(cnpj);
    await user.type(cnpj, '11222333000181');
    expect(cnpj.value).toBe('11.222.333/0001-81');
    await user.click(within(dialog).getByRole('button', { name: 'Cadastrar' }));
    expect(within(dialog).queryByText(msg.company.cnpjInvalid)).toBeNull();
    expect(within(dialog).queryByText(msg.company.cnpjRequired)).toBeNull();
  });

  it('adds the registration with POST step2, sending only the phone digits and null billing', async () => {
    const { calls, dialog } = await openAddModal();
    const user = userEvent.setup();
    const field = (label: RegExp) =>
      within(dialog)
        .getAllByLabelText(label)
        .find((el) => el.tagName === 'INPUT' && (el as HTMLInputElement).type !== 'hidden') as HTMLInputElement;
    await user.type(field(/CNPJ/), '11222333000181');
    await user.type(field(/Inscrição municipal/), '12345');
    await user.type(field(/Razão social/), 'Aurora Modas Ltda');
    await user.type(field(/Data de fundação/), '10052015');
    await user.type(field(/E-mail/), 'financeiro@aurora.com.br');
    await user.type(field(/Telefone/), '11987654321');
    expect((field(/Telefone/) as HTMLInputElement).value).toBe('(11) 98765-4321');
    await user.type(field(/CEP/), '01001000');
    await user.type(field(/Endereço/), 'Rua das Flores');
    await user.type(field(/Número/), '100');
    await user.type(field(/Bairro/), 'Centro');
    await user.type(field(/Cidade/), 'São Paulo');
    await user.click(field(/UF/));
    await user.click(await screen.findByRole('option', { name: 'SP' }));
    await user.click(within(dialog).getByRole('button', { name: 'Cadastrar' }));

    expect(await screen.findByText(msg.company.saved)).toBeTruthy();
    const body = calls.find((c) => c.url === `/api/company/${COMPANY}/step2`)?.json as {
      company: Record<string, unknown>;
    };
    expect(body.company).toMatchObject({
      document: { type: 'cnpj', number: '11222333000181' },
      telefone: '11987654321',
      zip_code: '01001000',
      dt_birthday: '10/05/2015',
      uf: 'SP',
      country: 'Brasil',
      dt_payment: null,
      type_payment: null,
      credit_card: null,
      notes: null,
    });
  });

  it('shows a saved company and opens it read-only in view mode', async () => {
    renderPage('/settings', { session: true, fetch: serve(savedCompany) });
    expect(await screen.findByText('11.222.333/0001-81', {}, { timeout: 5000 })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Visualizar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dados da empresa' });
    const razao = within(dialog).getByLabelText(/Razão social/) as HTMLInputElement;
    expect(razao.value).toBe('Aurora Modas Ltda');
    expect(razao.readOnly).toBe(true);
    expect((within(dialog).getByLabelText(/Telefone/) as HTMLInputElement).value).toBe('(11) 98765-4321');
    expect(within(dialog).queryByRole('button', { name: /Salvar/ })).toBeNull();
  });

  it('switches from view to edit without saving, then saves with PUT update', async () => {
    const { calls } = renderPage('/settings', {
      session: true,
      fetch: (url, init) => {
        if (url === `/api/company/list/${COMPANY}`) return ok(savedCompany);
        if (url === `/api/company/update/${COMPANY}` && init.method === 'PUT')
          return { body: { message: msg.company.updated, data: savedCompany } };
        return undefined;
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Visualizar' }, { timeout: 5000 }));
    const view = await screen.findByRole('dialog', { name: 'Dados da empresa' });
    await userEvent.click(within(view).getByRole('button', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar dados da empresa' });
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    const numero = within(dialog).getByLabelText(/Número/);
    await userEvent.clear(numero);
    await userEvent.type(numero, '200');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar alterações' }));
    expect(await screen.findByText(msg.company.updated)).toBeTruthy();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.url).toBe(`/api/company/update/${COMPANY}`);
    expect((put!.json as { company: Record<string, unknown> }).company).toMatchObject({
      numero: '200',
      telefone: '11987654321',
      document: { type: 'cnpj', number: '11222333000181' },
    });
  });

  it('stops loading and shows an alert when the company cannot be listed', async () => {
    renderPage('/settings', {
      session: true,
      fetch: (url) => {
        if (url.startsWith('/api/company/list/'))
          return { status: 404, body: { message: msg.company.notFound, code: 'COMPANY_NOT_FOUND' } };
        return undefined;
      },
    });
    expect(await screen.findByText('Não foi possível carregar os dados da empresa')).toBeTruthy();
    expect(screen.getByText(msg.company.notFound)).toBeTruthy();
  });
});
