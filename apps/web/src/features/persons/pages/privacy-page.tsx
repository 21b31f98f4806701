import { DEFAULT_RETENTION_MONTHS, type ErasureReport, type PersonLookup, personLookupSchema } from '@impeto/shared';
import { Alert, Anchor, Button, EmptyState, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import {
  IconArrowLeft,
  IconClockHour4,
  IconDownload,
  IconInfoCircle,
  IconShieldLock,
  IconTrash,
  IconUserSearch,
} from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { errorMessage, isApiError } from '../../../lib/api.ts';
import { formatCount } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { useSession } from '../../../lib/session.ts';
import { useDomains } from '../../domains/index.ts';
import { useErasePerson } from '../api/erase-person.ts';
import { useExportPerson } from '../api/export-person.ts';
import { useLookupPersons } from '../api/lookup-persons.ts';
import { LOOKUP_KINDS, type LookupKind, lookupOf } from '../api/person-lookup.ts';
import { EraseModal } from '../components/erase-modal.tsx';
import { LookupForm } from '../components/lookup-form.tsx';
import { PersonCard } from '../components/person-card.tsx';

const SUBJECT: Record<LookupKind, string> = { vid: 'ID do visitante', email: 'e-mail', phone: 'telefone' };

/** The lookup lives in the URL (?vid=|email=|phone=), so a search can be shared and survives a reload. */
function useLookupParam() {
  const [params, setParams] = useSearchParams();
  const kind = LOOKUP_KINDS.find((k) => params.has(k)) ?? 'vid';
  const value = params.get(kind) ?? '';
  const lookup = useMemo<PersonLookup | null>(() => {
    if (!value) return null;
    const parsed = personLookupSchema.safeParse(lookupOf(kind, value));
    return parsed.success ? parsed.data : null;
  }, [kind, value]);
  const search = (next: LookupKind, text: string) =>
    setParams((current) => {
      const params = new URLSearchParams(current);
      for (const k of LOOKUP_KINDS) params.delete(k);
      params.set(next, text);
      return params;
    });
  return { kind, value, lookup, search };
}

/** Visitors' rights (LGPD art. 18) for one domain: find a person, download their data, erase it for good. */
export default function PrivacyPage() {
  usePageTitle('Privacidade (LGPD)');
  const { uuid = '' } = useParams();
  const session = useSession();
  const domains = useDomains(session?.company_uuid ?? '');
  const domain = domains.data?.find((d) => d.uuid === uuid);
  const { kind, value, lookup, search } = useLookupParam();
  const persons = useLookupPersons(uuid, lookup);
  const exporter = useExportPerson();
  const eraser = useErasePerson();
  const [confirming, setConfirming] = useState(false);
  const [erased, setErased] = useState<ErasureReport | null>(null);
  const notFound = persons.isError && isApiError(persons.error) && persons.error.status === 404;

  if (domains.isSuccess && !domain) {
    return (
      <Alert color="yellow" icon={<IconInfoCircle />} title="Domínio não encontrado">
        Este domínio não existe ou não pertence à sua empresa.{' '}
        <Anchor component={Link} to="/domains">
          Voltar para Domínios
        </Anchor>
      </Alert>
    );
  }

  const download = () =>
    lookup &&
    exporter.mutate(
      { domainUuid: uuid, lookup },
      { onSuccess: (answer) => notifySuccess(answer.message), onError: notifyError },
    );
  const erase = () =>
    lookup &&
    eraser.mutate(
      { domainUuid: uuid, lookup },
      {
        onSuccess: (answer) => {
          setConfirming(false);
          setErased(answer.data);
          notifySuccess(answer.message);
        },
        onError: notifyError,
      },
    );

  return (
    <>
      <PageHeader
        title="Privacidade (LGPD)"
        description={
          domain ? (
            <>
              Direitos dos titulares em <b>{domain.name}</b>: consulte, exporte ou apague os dados de um visitante.
            </>
          ) : (
            <Skeleton height={14} width={320} mt={4} />
          )
        }
        actions={
          <Button component={Link} to="/domains" variant="default" leftSection={<IconArrowLeft size={16} />}>
            Domínios
          </Button>
        }
      />
      <Stack gap="lg">
        <Paper withBorder radius="lg" p="lg">
          <Group gap="xs" mb="xs">
            <IconUserSearch size={20} />
            <Title order={4}>Buscar titular</Title>
          </Group>
          <Text size="sm" c="dimmed" mb="md">
            Busque pelo ID do visitante (gravado pelo script no navegador) ou pelo e-mail ou telefone que o seu site
            enviou com <code>gero('identify', …)</code>.
          </Text>
          <LookupForm
            kind={kind}
            value={value}
            loading={persons.isFetching}
            onSearch={(k, v) => {
              setErased(null);
              search(k, v);
            }}
          />
        </Paper>

        {erased ? (
          <Alert color="green" variant="light" icon={<IconShieldLock />} title="Dados apagados definitivamente">
            {formatCount(erased.persons)} visitante(s), {formatCount(erased.events)} evento(s) e{' '}
            {formatCount(erased.onsite)} mensagem(ns) pendente(s) apagados; {formatCount(erased.deliveries)} envio(s)
            desvinculado(s).
          </Alert>
        ) : lookup ? (
          persons.isPending ? (
            <Skeleton height={120} radius="md" />
          ) : notFound ? (
            <Paper withBorder radius="lg" p="xl">
              <EmptyState
                variant="light"
                icon={<IconUserSearch />}
                title="Nenhum visitante encontrado"
                description={errorMessage(persons.error)}
              />
            </Paper>
          ) : persons.isError ? (
            <Alert color="red" icon={<IconInfoCircle />}>
              {errorMessage(persons.error)}
            </Alert>
          ) : (
            <Paper withBorder radius="lg" p="lg">
              <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
                <Title order={4}>
                  {persons.data.length === 1
                    ? '1 visitante encontrado'
                    : `${persons.data.length} visitantes encontrados`}
                </Title>
                <Group gap="sm">
                  <Button
                    variant="default"
                    leftSection={<IconDownload size={16} />}
                    loading={exporter.isPending}
                    onClick={download}
                  >
                    Baixar dados (JSON)
                  </Button>
                  <Button
                    color="red"
                    variant="light"
                    leftSection={<IconTrash size={16} />}
                    onClick={() => setConfirming(true)}
                  >
                    Apagar dados
                  </Button>
                </Group>
              </Group>
              <Stack gap="sm">
                {persons.data.map((p) => (
                  <PersonCard key={p.uuid} person={p} />
                ))}
              </Stack>
            </Paper>
          )
        ) : null}

        <Paper withBorder radius="lg" p="lg">
          <Group gap="xs" mb="xs">
            <IconClockHour4 size={20} />
            <Title order={4}>Retenção dos eventos</Title>
          </Group>
          <Text size="sm" c="dimmed">
            {domain ? (
              <>
                Eventos com mais de <b>{domain.retention_months ?? DEFAULT_RETENTION_MONTHS} meses</b> são apagados
                automaticamente todos os dias. Altere o prazo em Domínios › Opções › Editar.
              </>
            ) : (
              <Skeleton height={14} width={360} component="span" display="block" />
            )}
          </Text>
        </Paper>
      </Stack>

      <EraseModal
        opened={confirming}
        subject={`${SUBJECT[kind]} ${value}`}
        persons={persons.data?.length ?? 0}
        loading={eraser.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={erase}
      />
    </>
  );
}
