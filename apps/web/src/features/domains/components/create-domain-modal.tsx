import { createDomainSchema, ensureHttps, msg } from '@impeto/shared';
import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import { useAppConfig } from '../../../lib/app-config.ts';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useCreateDomain } from '../api/create-domain.ts';

interface Props {
  opened: boolean;
  onClose: () => void;
  companyUuid: string;
  showWelcome: boolean;
}

export function CreateDomainModal({ opened, onClose, companyUuid, showWelcome }: Props) {
  const createDomain = useCreateDomain();
  const allowPrivate = useAppConfig().data?.allowPrivate ?? false;
  const form = useForm({
    initialValues: { domain: { company_uuid: companyUuid, name: '', domain: '' } },
    validate: (values) => schemaResolver(createDomainSchema(allowPrivate), { sync: true })(values),
  });

  const close = () => {
    form.reset();
    onClose();
  };

  const submit = form.onSubmit((values) => {
    const body = {
      domain: { ...values.domain, name: values.domain.name.trim(), domain: ensureHttps(values.domain.domain) },
    };
    createDomain.mutate(body, {
      onSuccess: (answer) => {
        if (answer.message) notifySuccess(answer.message);
        close();
      },
      onError: (error) => {
        applyFieldErrors(form, error, { 'domain.name': 'domain.name', 'domain.domain': 'domain.domain' });
        notifyError(error);
      },
    });
  });

  return (
    <Modal opened={opened} onClose={close} title="Adicionando um novo domínio" size="md">
      <form onSubmit={submit} noValidate>
        <Stack>
          {showWelcome ? (
            <Alert variant="light" icon={<IconInfoCircle />}>
              {msg.domain.noDomainsHint}
            </Alert>
          ) : null}
          <TextInput
            label="Nome"
            name="name"
            placeholder="Minha loja"
            withAsterisk
            {...form.getInputProps('domain.name')}
          />
          <TextInput
            label="URL"
            name="domain"
            placeholder="https://www.minhaloja.com.br"
            withAsterisk
            {...form.getInputProps('domain.domain')}
            onBlur={(event) => {
              const value = event.currentTarget.value;
              if (value.trim()) form.setFieldValue('domain.domain', ensureHttps(value));
            }}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close}>
              Cancelar
            </Button>
            <Button type="submit" loading={createDomain.isPending}>
              Adicionar
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
