import {
  createDomainSchema,
  DEFAULT_RETENTION_MONTHS,
  type DomainItem,
  ensureHttps,
  retentionMonthsSchema,
} from '@impeto/shared';
import { Button, Group, Modal, NumberInput, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useEffect } from 'react';
import { useAppConfig } from '../../../lib/app-config.ts';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useUpdateDomain } from '../api/update-domain.ts';

interface Props {
  domain: DomainItem | null;
  onClose: () => void;
}

/** Edit name and address with the creation rules and messages (READINGS A-15: address is the URL). */
export function EditDomainModal({ domain, onClose }: Props) {
  const updateDomain = useUpdateDomain();
  const allowPrivate = useAppConfig().data?.allowPrivate ?? false;
  const form = useForm({
    initialValues: { name: '', domain: '', retention_months: DEFAULT_RETENTION_MONTHS as number | string },
    validate: (values) => {
      const errors = schemaResolver(createDomainSchema(allowPrivate).shape.domain.pick({ name: true, domain: true }), {
        sync: true,
      })(values);
      const retention = retentionMonthsSchema.safeParse(values.retention_months);
      return retention.success ? errors : { ...errors, retention_months: retention.error.issues[0]?.message };
    },
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is re-seeded only when another domain opens.
  useEffect(() => {
    if (domain)
      form.setValues({
        name: domain.name,
        domain: domain.domain,
        retention_months: domain.retention_months ?? DEFAULT_RETENTION_MONTHS,
      });
    else form.reset();
  }, [domain?.uuid]);

  const submit = form.onSubmit((values) => {
    if (!domain) return;
    updateDomain.mutate(
      {
        uuid: domain.uuid,
        name: values.name.trim(),
        address: ensureHttps(values.domain),
        retention_months: Number(values.retention_months),
      },
      {
        onSuccess: (answer) => {
          notifySuccess(answer.message);
          onClose();
        },
        onError: (error) => {
          applyFieldErrors(form, error, {
            'domain.name': 'name',
            'domain.address': 'domain',
            'domain.retention_months': 'retention_months',
          });
          notifyError(error);
        },
      },
    );
  });

  return (
    <Modal opened={domain !== null} onClose={onClose} title="Editando domínio" size="md">
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="Nome" name="name" placeholder="Minha loja" withAsterisk {...form.getInputProps('name')} />
          <TextInput
            label="URL"
            name="domain"
            placeholder="https://www.minhaloja.com.br"
            withAsterisk
            {...form.getInputProps('domain')}
            onBlur={(event) => {
              const value = event.currentTarget.value;
              if (value.trim()) form.setFieldValue('domain', ensureHttps(value));
            }}
          />
          <NumberInput
            label="Retenção dos eventos (meses)"
            name="retention_months"
            description="Eventos mais antigos que isso são apagados automaticamente (LGPD). Padrão: 13 meses."
            min={1}
            max={120}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            {...form.getInputProps('retention_months')}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              Cancelar
            </Button>
            <Button type="submit" loading={updateDomain.isPending}>
              Salvar
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
