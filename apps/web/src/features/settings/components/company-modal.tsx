import {
  BR_STATE_CODES,
  type CompanyData,
  type CompanyFormBody,
  type CompanyFormInput,
  companyFormFields,
} from '@impeto/shared';
import {
  Button,
  Divider,
  Grid,
  Group,
  InputBase,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconPencil } from '@tabler/icons-react';
import { useEffect } from 'react';
import { IMaskInput } from 'react-imask';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useRegisterCompany } from '../api/register-company.ts';
import { useUpdateCompany } from '../api/update-company.ts';
import { formatCep, formatCnpj, formatPhone } from './company-format.ts';

export type CompanyModalMode = 'add' | 'edit' | 'view';

export interface CompanyFormValues {
  document: { type: 'cnpj'; number: string };
  inscricao_municipal: string;
  razao_social: string;
  email: string;
  endereco: string;
  numero: string;
  bairro: string;
  zip_code: string;
  cidade: string;
  uf: string;
  country: string;
  telefone: string;
  dt_birthday: string;
}

const FIELD_PATHS = [
  'document.number',
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
];

export const emptyCompanyForm = (): CompanyFormValues => ({
  document: { type: 'cnpj', number: '' },
  inscricao_municipal: '',
  razao_social: '',
  email: '',
  endereco: '',
  numero: '',
  bairro: '',
  zip_code: '',
  cidade: '',
  uf: '',
  country: 'Brasil',
  telefone: '',
  dt_birthday: '',
});

export const companyToForm = (company: CompanyData): CompanyFormValues => ({
  document: { type: 'cnpj', number: formatCnpj(company.document?.number ?? '') },
  inscricao_municipal: company.inscricao_municipal ?? '',
  razao_social: company.razao_social ?? '',
  email: company.email ?? '',
  endereco: company.endereco ?? '',
  numero: company.numero ?? '',
  bairro: company.bairro ?? '',
  zip_code: formatCep(company.zip_code),
  cidade: company.cidade ?? '',
  uf: company.uf ?? '',
  country: company.country ?? '',
  telefone: formatPhone(company.telefone),
  dt_birthday: company.dt_birthday ?? '',
});

/** The body both endpoints take: masks removed by the shared schema (only digits of the phone go), billing null. */
export function companyFormBody(values: CompanyFormValues): CompanyFormBody {
  const company = companyFormFields.parse(values satisfies CompanyFormInput);
  return { company: { ...company, dt_payment: null, type_payment: null, credit_card: null, notes: null } };
}

const PHONE_MASKS = [{ mask: '(00) 0000-0000' }, { mask: '(00) 00000-0000' }];

const TITLES: Record<CompanyModalMode, string> = {
  add: 'Cadastrar dados da empresa',
  edit: 'Editar dados da empresa',
  view: 'Dados da empresa',
};

interface Props {
  opened: boolean;
  mode: CompanyModalMode;
  company: CompanyData;
  onClose: () => void;
  onModeChange: (mode: CompanyModalMode) => void;
}

/** The company modal (doc 1 §2, §5): add → POST step2, edit → PUT update, view is read-only. */
export function CompanyModal({ opened, mode, company, onClose, onModeChange }: Props) {
  const register = useRegisterCompany(company.uuid);
  const update = useUpdateCompany(company.uuid);
  const saving = register.isPending || update.isPending;
  const readOnly = mode === 'view';
  const form = useForm<CompanyFormValues>({
    initialValues: emptyCompanyForm(),
    validate: (values) => schemaResolver(companyFormFields, { sync: true })(values),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-seeded when the modal opens or changes mode.
  useEffect(() => {
    if (!opened) return;
    form.setValues(mode === 'add' ? emptyCompanyForm() : companyToForm(company));
    form.clearErrors();
  }, [opened, mode]);

  const submit = form.onSubmit((values) => {
    if (readOnly) return;
    const mutation = mode === 'add' ? register : update;
    mutation.mutate(companyFormBody(values), {
      onSuccess: (answer) => {
        notifySuccess(answer.message);
        onClose();
      },
      onError: (error) => {
        applyFieldErrors(form, error, (key) => {
          const path = key.replace(/^company\./, '');
          return FIELD_PATHS.includes(path) ? path : undefined;
        });
        notifyError(error);
      },
    });
  });

  const text = (
    path: keyof Omit<CompanyFormValues, 'document'>,
    label: string,
    extra: Record<string, unknown> = {},
  ) => (
    <TextInput
      label={label}
      name={path}
      withAsterisk={!readOnly}
      readOnly={readOnly}
      variant={readOnly ? 'filled' : 'default'}
      {...form.getInputProps(path)}
      {...extra}
    />
  );

  const masked = (path: string, label: string, mask: string | typeof PHONE_MASKS, placeholder: string) => {
    const props = form.getInputProps(path);
    return (
      <InputBase
        component={IMaskInput}
        mask={mask}
        label={label}
        name={path}
        placeholder={readOnly ? undefined : placeholder}
        withAsterisk={!readOnly}
        readOnly={readOnly}
        variant={readOnly ? 'filled' : 'default'}
        inputMode="numeric"
        value={props.value ?? ''}
        error={props.error}
        onBlur={props.onBlur}
        onFocus={props.onFocus}
        onAccept={(value: string) => form.setFieldValue(path, value)}
      />
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} title={TITLES[mode]} size={760}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {company.name}
            {mode === 'add' ? ' · preencha todos os campos para concluir o cadastro.' : ''}
          </Text>
          <Divider label="Identificação" labelPosition="left" />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
            {masked('document.number', 'CNPJ', '00.000.000/0000-00', '00.000.000/0000-00')}
            {text('inscricao_municipal', 'Inscrição municipal')}
            {text('razao_social', 'Razão social')}
            {masked('dt_birthday', 'Data de fundação', '00/00/0000', 'dd/mm/aaaa')}
          </SimpleGrid>
          <Divider label="Contato" labelPosition="left" />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
            {text('email', 'E-mail', {
              type: 'email',
              placeholder: readOnly ? undefined : 'financeiro@empresa.com.br',
            })}
            {masked('telefone', 'Telefone', PHONE_MASKS, '(00) 00000-0000')}
          </SimpleGrid>
          <Divider label="Endereço" labelPosition="left" />
          <Grid gap="md">
            <Grid.Col span={{ base: 12, sm: 4 }}>{masked('zip_code', 'CEP', '00000-000', '00000-000')}</Grid.Col>
            <Grid.Col span={{ base: 12, sm: 8 }}>{text('endereco', 'Endereço')}</Grid.Col>
            <Grid.Col span={{ base: 12, sm: 4 }}>{text('numero', 'Número')}</Grid.Col>
            <Grid.Col span={{ base: 12, sm: 8 }}>{text('bairro', 'Bairro')}</Grid.Col>
            <Grid.Col span={{ base: 12, sm: 5 }}>{text('cidade', 'Cidade')}</Grid.Col>
            <Grid.Col span={{ base: 12, sm: 3 }}>
              <Select
                label="UF"
                name="uf"
                data={BR_STATE_CODES as string[]}
                searchable
                withAsterisk={!readOnly}
                readOnly={readOnly}
                variant={readOnly ? 'filled' : 'default'}
                placeholder={readOnly ? undefined : 'Selecione'}
                nothingFoundMessage="Nenhum estado encontrado"
                comboboxProps={{ withinPortal: true }}
                {...form.getInputProps('uf')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 4 }}>{text('country', 'País')}</Grid.Col>
          </Grid>
          <Group justify="flex-end" mt="sm">
            {readOnly ? (
              <>
                <Button key="close" variant="default" onClick={onClose}>
                  Fechar
                </Button>
                {/* Distinct keys: React must not turn this very button into the submit one mid-click. */}
                <Button key="edit" leftSection={<IconPencil size={16} />} onClick={() => onModeChange('edit')}>
                  Editar
                </Button>
              </>
            ) : (
              <>
                <Button key="cancel" variant="default" onClick={onClose} disabled={saving}>
                  Cancelar
                </Button>
                <Button key="submit" type="submit" loading={saving}>
                  {mode === 'add' ? 'Cadastrar' : 'Salvar alterações'}
                </Button>
              </>
            )}
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
