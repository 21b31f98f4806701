import { createCompanySchema } from '@impeto/shared';
import { Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconArrowLeft, IconArrowRight, IconBuilding } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { notifyError } from '../../../lib/notify.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { useCreateCompany } from '../api/create-company.ts';
import { AuthLayout } from '../components/auth-layout.tsx';
import { SignupSteps } from '../components/signup-steps.tsx';

export default function SignupCompanyPage() {
  usePageTitle('Cadastro da empresa');
  const navigate = useNavigate();
  const createCompany = useCreateCompany();
  const form = useForm({
    initialValues: { company: { name: '' } },
    validate: schemaResolver(createCompanySchema, { sync: true }),
  });

  const submit = form.onSubmit((values) => {
    createCompany.mutate(
      { company: { name: values.company.name.trim() } },
      {
        onSuccess: ({ data }) =>
          navigate('/signup/user', { state: { company_uuid: data.company.uuid, company_name: data.company.name } }),
        onError: notifyError,
      },
    );
  });

  return (
    <AuthLayout withTopBar width={520}>
      <SignupSteps active={0} />
      <form onSubmit={submit} noValidate aria-label="Cadastro da empresa">
        <Stack gap="md">
          <div>
            <Title order={2} fz={24}>
              Crie sua conta
            </Title>
            <Text c="dimmed" size="sm" mt={4}>
              Comece pela sua empresa. Você poderá completar os dados cadastrais depois, nas configurações.
            </Text>
          </div>
          <TextInput
            label="Nome da empresa ou apelido"
            name="company_name"
            placeholder="Ex.: Loja Aurora"
            leftSection={<IconBuilding size={16} />}
            autoComplete="organization"
            {...form.getInputProps('company.name')}
          />
          <Group justify="space-between" mt="sm">
            <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={() => navigate('/signin')}>
              Voltar
            </Button>
            <Button type="submit" rightSection={<IconArrowRight size={16} />} loading={createCompany.isPending}>
              Avançar
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthLayout>
  );
}
