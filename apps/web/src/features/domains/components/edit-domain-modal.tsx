import {
  createDomainSchema,
  DEFAULT_DOMAIN_TIMEZONE,
  DEFAULT_RETENTION_MONTHS,
  type DomainItem,
  ensureHttps,
  globalControlPercentSchema,
  MAX_GLOBAL_CONTROL_PERCENT,
  retentionMonthsSchema,
} from '@impeto/shared';
import { Button, Group, Modal, NumberInput, Stack, Switch, TagsInput, TextInput } from '@mantine/core';
import { TimeInput } from '@mantine/dates';
import { schemaResolver, useForm } from '@mantine/form';
import { useEffect } from 'react';
import { useAppConfig } from '../../../lib/app-config.ts';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useUpdateDomain } from '../api/update-domain.ts';
import { type DomainTimingFields, readTimingFields, timingFieldsOf } from './domain-timing.ts';
import { TimezoneSelect } from './timezone-select.tsx';

const NO_TIMING: DomainTimingFields = { quiet_on: false, quiet_start: '22:00', quiet_end: '08:00', holidays: [] };

interface Props {
  domain: DomainItem | null;
  onClose: () => void;
}

/** Edit name and address with the creation rules and messages (READINGS A-15: address is the URL). */
export function EditDomainModal({ domain, onClose }: Props) {
  const updateDomain = useUpdateDomain();
  const allowPrivate = useAppConfig().data?.allowPrivate ?? false;
  const form = useForm({
    initialValues: {
      name: '',
      domain: '',
      retention_months: DEFAULT_RETENTION_MONTHS as number | string,
      control_group_percent: 0 as number | string,
      timezone: DEFAULT_DOMAIN_TIMEZONE,
      ...NO_TIMING,
    },
    validate: (values) => {
      const errors = schemaResolver(createDomainSchema(allowPrivate).shape.domain.pick({ name: true, domain: true }), {
        sync: true,
      })(values);
      const retention = retentionMonthsSchema.safeParse(values.retention_months);
      const control = globalControlPercentSchema.safeParse(
        values.control_group_percent === '' ? null : Number(values.control_group_percent),
      );
      const timing = domain ? readTimingFields(values, domain) : { change: {} };
      return {
        ...errors,
        ...(retention.success ? {} : { retention_months: retention.error.issues[0]?.message }),
        ...(control.success ? {} : { control_group_percent: control.error.issues[0]?.message }),
        ...('errors' in timing ? timing.errors : {}),
      };
    },
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is re-seeded only when another domain opens.
  useEffect(() => {
    if (domain)
      form.setValues({
        name: domain.name,
        domain: domain.domain,
        retention_months: domain.retention_months ?? DEFAULT_RETENTION_MONTHS,
        control_group_percent: domain.control_group_percent ?? 0,
        timezone: domain.timezone ?? DEFAULT_DOMAIN_TIMEZONE,
        ...timingFieldsOf(domain),
      });
    else form.reset();
  }, [domain?.uuid]);

  const submit = form.onSubmit((values) => {
    if (!domain) return;
    const timing = readTimingFields(values, domain);
    updateDomain.mutate(
      {
        uuid: domain.uuid,
        name: values.name.trim(),
        address: ensureHttps(values.domain),
        retention_months: Number(values.retention_months),
        ...('change' in timing ? timing.change : {}),
        // The domain's zone (issue #27) only when changed.
        ...(values.timezone !== (domain.timezone ?? DEFAULT_DOMAIN_TIMEZONE) ? { timezone: values.timezone } : {}),
        // The global control group (issue #25) only when changed.
        ...(Number(values.control_group_percent) !== (domain.control_group_percent ?? 0)
          ? { control_group_percent: Number(values.control_group_percent) }
          : {}),
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
            'domain.quiet_hours.start': 'quiet_start',
            'domain.quiet_hours.end': 'quiet_end',
            'domain.extra_holidays': 'holidays',
            'domain.control_group_percent': 'control_group_percent',
            'domain.timezone': 'timezone',
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
          <TimezoneSelect
            name="timezone"
            {...form.getInputProps('timezone')}
            value={form.values.timezone}
            onChange={(zone) => zone && form.setFieldValue('timezone', zone)}
          />
          <Switch
            label="Horário de silêncio"
            description="Push, SMS e e-mail que vencerem dentro da janela esperam o fim dela, no horário de cada visitante. Nada é descartado; mensagens no site não são afetadas."
            {...form.getInputProps('quiet_on', { type: 'checkbox' })}
          />
          {form.values.quiet_on && (
            <Group grow align="flex-start">
              <TimeInput label="Início do silêncio" name="quiet_start" {...form.getInputProps('quiet_start')} />
              <TimeInput label="Fim do silêncio" name="quiet_end" {...form.getInputProps('quiet_end')} />
            </Group>
          )}
          <TagsInput
            label="Feriados próprios"
            description="Datas estaduais e municipais (dd/mm/aaaa, Enter a cada uma), além dos feriados nacionais. Agendamentos e recorrências com 'Não enviar em feriados' passam para o dia seguinte."
            placeholder="dd/mm/aaaa"
            splitChars={[',', ' ', ';']}
            acceptValueOnBlur
            clearable
            {...form.getInputProps('holidays')}
          />
          <NumberInput
            label="Grupo de controle global"
            name="control_group_percent"
            description={`Parte dos visitantes do domínio (0 a ${MAX_GLOBAL_CONTROL_PERCENT} %) que nunca recebe mensagem de nenhum momentum ou campanha, para comparar as compras deles com as dos demais. Padrão: 0 %.`}
            suffix=" %"
            min={0}
            max={MAX_GLOBAL_CONTROL_PERCENT}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            {...form.getInputProps('control_group_percent')}
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
