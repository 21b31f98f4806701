import { type MomentumItem, type MomentumType, momentumMessages as mm, momentumBlocksSchema } from '@impeto/shared';
import { Alert, Badge, Button, Group, Menu, Modal, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconArrowRight,
  IconBolt,
  IconCalendarEvent,
  IconCalendarStats,
  IconChevronDown,
  IconClockPlay,
  IconDeviceFloppy,
  IconFileText,
  IconFilter,
  IconFlagCheck,
  IconFlask,
  IconLock,
  IconRocket,
  IconRoute,
  IconSend,
  IconSignature,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { Link, useBlocker, useNavigate } from 'react-router';
import { FormSection } from '../../../components/ui/form-section.tsx';
import { isApiError } from '../../../lib/api.ts';
import { withDomain } from '../../../lib/navigation.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { getSession } from '../../../lib/session.ts';
import {
  AudienceEstimate,
  blockOf,
  ChannelEditor,
  type ChannelState,
  channelFromBlock,
  checkDispatcher,
  checkExperiment,
  checkFilter,
  checkFinish,
  checkFinishFuture,
  checkTrigger,
  checkWorktime,
  dispatcherBlockInput,
  type ExitState,
  ExperimentEditor,
  type ExperimentState,
  emptyChannel,
  emptyExit,
  emptyExperiment,
  emptyFilter,
  emptyFinish,
  emptyTrigger,
  emptyWorktime,
  exitFromWire,
  exitInput,
  experimentFromItem,
  type FieldErrors,
  FilterEditor,
  type FilterState,
  FinishEditor,
  type FinishState,
  filterFromBlock,
  finishFromBlock,
  REDIRECT_DELAY_MS,
  ScheduleModal,
  TriggerEditor,
  type TriggerState,
  toWorktime,
  triggerFromBlock,
  VariantTabs,
  WorktimeEditor,
  type WorktimeState,
  warnIncomplete,
  winnerPlanLine,
  winnerStatusLine,
  worktimeFromItem,
  worktimeWithEndDate,
} from '../../blocks/index.ts';
import {
  checkTiming,
  emptyTiming,
  TimingEditor,
  type TimingErrors,
  type TimingState,
  timingFromItem,
} from '../../blocks/timing-editor.tsx';
import { SimulationPanel } from '../../simulate/index.ts';
import { momentumQueryKey } from '../api/get-momentum.ts';
import { type MomentumBody, useSaveMomentum } from '../api/save-momentum.ts';
import {
  checkJourney,
  describeExit,
  describeFormStep,
  type FormStep,
  formStepsFromItem,
  formStepsInput,
  type JourneyErrors,
  JourneySection,
} from './journey-section.tsx';
import { displayStatus, listPath, NOUN, STATUS_COLORS, statusLabel } from './momentum-status.ts';
import { MomentumSummary } from './momentum-summary.tsx';
import { TimingSummary } from './timing-summary.tsx';

export { REDIRECT_DELAY_MS };
export const ASK_DRAFT_NEW = 'Gostaria de salvar como rascunho?';
export const ASK_DRAFT_EDIT = 'Deseja salvar as alterações?';

interface FormState {
  title: string;
  description: string;
  filter: FilterState;
  trigger: TriggerState;
  worktime: WorktimeState;
  channel: ChannelState;
  finish: FinishState;
  /** 'Teste A/B' (issue #25): variants B, C, … of the channel's message, their shares, the control group. */
  experiment: ExperimentState<ChannelState>;
  /** 'Horário de envio' (issue #27): throttle, local or best time, holidays, the worktime's clock. */
  timing: TimingState;
  /** 'Jornada' (issue #26): follow-up steps after the message and when a person leaves them. */
  steps: FormStep[];
  exit: ExitState;
}
type SectionErrors = {
  title?: string;
  filter?: FieldErrors;
  trigger?: FieldErrors;
  worktime?: FieldErrors;
  channel?: FieldErrors;
  finish?: FieldErrors;
  experiment?: FieldErrors;
  timing?: TimingErrors;
  journey?: JourneyErrors;
  /** Each variant's message errors, B at 0 (A's are `channel`). */
  variants?: (FieldErrors | undefined)[];
};

/** A variant's values as the channel editor edits them (it shares variant A's channel). */
const variantFromValue = (channelUuid: string | null | undefined) => (value: unknown) =>
  channelFromBlock({ values: [value] }, channelUuid);
/** The dispatcher values of variant A (the channel) and of B, C, …. */
const variantValues = (s: FormState) =>
  [s.channel, ...(s.experiment.ab ? s.experiment.others : [])].map((c) => dispatcherBlockInput(c).values[0]);

const initialState = (item: MomentumItem | undefined): FormState =>
  item
    ? {
        title: item.momentum_title,
        description: item.momentum_description ?? '',
        filter: filterFromBlock(blockOf(item.momentums, 'filter')),
        trigger: triggerFromBlock(blockOf(item.momentums, 'trigger')),
        worktime: worktimeFromItem(item.worktime),
        channel: channelFromBlock(blockOf(item.momentums, 'dispatcher'), item.channel_uuid),
        finish: finishFromBlock(blockOf(item.momentums, 'finish')),
        experiment: experimentFromItem(item.experiment, variantFromValue(item.channel_uuid)),
        timing: timingFromItem(item),
        steps: formStepsFromItem(item.steps),
        exit: exitFromWire(item.exit),
      }
    : {
        title: '',
        description: '',
        filter: emptyFilter(),
        trigger: emptyTrigger(),
        worktime: emptyWorktime(),
        channel: emptyChannel(),
        finish: emptyFinish(),
        experiment: emptyExperiment(),
        timing: emptyTiming(),
        steps: [],
        exit: emptyExit(),
      };

export interface MomentumFormProps {
  type: MomentumType;
  domainUuid: string;
  siteRoot: string;
  item?: MomentumItem;
  /** Called with the new draft after a first Rascunho: the page then edits that draft (spec doc 2 §4). */
  onDraftCreated?: (item: MomentumItem) => void;
}

/** The v2 create/edit form: sections, then a Resumo with the save choices (spec doc 2 §2.3). */
export function MomentumForm({ type, domainUuid, siteRoot, item, onDraftCreated }: MomentumFormProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const save = useSaveMomentum();
  const isMomentum = type === 'momentum';
  const isDraft = item?.status === 'Draft';
  const isNew = !item;
  /** An existing non-draft item keeps its title, filter and trigger (READINGS A-33). */
  const locked = Boolean(item) && !isDraft;
  const initial = useMemo(() => initialState(item), [item]);
  const [state, setState] = useState<FormState>(initial);
  const [errors, setErrors] = useState<SectionErrors>({});
  const [step, setStep] = useState<'form' | 'summary'>('form');
  /** The variant whose message the channel section shows (0 = A). */
  const [variant, setVariant] = useState(0);
  const [scheduleOpen, setScheduleOpen] = useState(false);
  const [blocks, setBlocks] = useState<unknown[]>([]);
  /** What the server said about a refused save (the toast carries the spec's text, §8). */
  const [refusal, setRefusal] = useState<string | null>(null);
  /** The state as last saved: a Rascunho stays on the page, and only later edits count as unsaved. */
  const [saved, setSaved] = useState(() => JSON.stringify(initial));
  const leaving = useRef(false);
  const host = (() => {
    try {
      return new URL(siteRoot).host;
    } catch {
      return siteRoot;
    }
  })();
  const noun = NOUN[type];

  const dirty = JSON.stringify(state) !== saved;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      (isNew || isDraft) && dirty && !leaving.current && currentLocation.pathname !== nextLocation.pathname,
  );

  /** Editing a section clears its errors; the next Seguir checks it again. */
  const set =
    <K extends keyof FormState>(key: K) =>
    (value: FormState[K]) => {
      setState((s) => ({ ...s, [key]: value }));
      if (key !== 'description') setErrors((e) => (e[key as keyof SectionErrors] ? { ...e, [key]: undefined } : e));
    };

  /** Every section through the shared schemas; the blocks in order filter, trigger, dispatcher, finish. */
  function validateAll(): { ok: true; blocks: unknown[] } | { ok: false } {
    const next: SectionErrors = {};
    const out: unknown[] = [];
    if (!state.title.trim()) next.title = mm.titleRequired(type);
    const original = (t: string) => blockOf(item?.momentums, t);

    if (locked && original('filter')) out.push(original('filter'));
    else {
      const f = checkFilter(state.filter);
      if (f.ok) out.push(f.block);
      else next.filter = f.errors;
    }
    if (isMomentum) {
      if (locked && original('trigger')) out.push(original('trigger'));
      else {
        const t = checkTrigger(state.trigger);
        if (t.ok) out.push(t.block);
        else next.trigger = t.errors;
      }
    }
    const w = checkWorktime(state.worktime);
    if (!w.ok) next.worktime = w.errors;
    const d = checkDispatcher(state.channel);
    const channelErrors: FieldErrors = d.ok ? {} : { ...d.errors };
    if (!state.channel.channel_uuid) channelErrors.channel_uuid = 'Escolha um canal.';
    if (Object.keys(channelErrors).length) next.channel = channelErrors;
    else if (d.ok) out.push(d.block);
    const others = state.experiment.ab ? state.experiment.others.map((c) => checkDispatcher(c)) : [];
    if (others.some((o) => !o.ok)) next.variants = others.map((o) => (o.ok ? undefined : o.errors));
    const x = checkExperiment(state.experiment, variantValues(state));
    if (!x.ok) next.experiment = x.errors;
    const timing = checkTiming(state.timing, type, state.trigger.filter);
    if (!timing.ok) next.timing = timing.errors;
    if (isMomentum) {
      const journey = checkJourney(state.steps, state.exit);
      if (Object.keys(journey).length) next.journey = journey;
    }
    if (isMomentum && state.finish.enabled) {
      const fin = checkFinishFuture(state.finish);
      if (!fin.ok) next.finish = fin.errors;
      else out.push(fin.block);
    }
    setErrors(next);
    if (Object.keys(next).length) return { ok: false };
    const parsed = momentumBlocksSchema.safeParse(out);
    return parsed.success ? { ok: true, blocks: parsed.data } : { ok: false };
  }

  /** A draft keeps whatever sections are valid now. */
  function draftBlocks(): unknown[] {
    const out: unknown[] = [];
    const f = checkFilter(state.filter);
    if (f.ok) out.push(f.block);
    if (isMomentum && state.trigger.filter) {
      const t = checkTrigger(state.trigger);
      if (t.ok) out.push(t.block);
    }
    const d = checkDispatcher(state.channel);
    if (d.ok) out.push(d.block);
    if (isMomentum && state.finish.enabled) {
      const fin = checkFinish(state.finish);
      if (fin.ok) out.push(fin.block);
    }
    return out;
  }

  /** `experiment` beside `momentums` when the section is used and the message went into the blocks; no key otherwise. */
  const experimentOf = (momentums: unknown[]) => {
    if (!momentums.some((b) => (b as { type?: string }).type === 'dispatcher')) return {};
    const x = checkExperiment(state.experiment, variantValues(state));
    return x.ok && x.experiment ? { experiment: x.experiment } : {};
  };

  /** The timing options that are on, flat beside `momentums`; none when the section is untouched or invalid. */
  const timingOf = () => {
    const t = checkTiming(state.timing, type, state.trigger.filter);
    return t.ok ? t.timing : {};
  };

  /**
   * `steps` and `exit` beside `momentums` when the momentum has steps, all valid, and its message went into the
   * blocks; an edit that removed every step of a stored journey sends `steps: []`; otherwise no key.
   */
  const journeyOf = (momentums: unknown[]) => {
    const hasMessage = momentums.some((b) => (b as { type?: string }).type === 'dispatcher');
    if (isMomentum && hasMessage && state.steps.length && !Object.keys(checkJourney(state.steps, state.exit)).length)
      return { steps: formStepsInput(state.steps), exit: exitInput(state.exit) } as Partial<MomentumBody>;
    return item?.steps?.length && !state.steps.length ? { steps: [] } : {};
  };

  const session = getSession();
  const bodyOf = (momentums: unknown[], extra: Partial<MomentumBody>, worktimeOk: boolean): MomentumBody => ({
    ...(session ? { company_uuid: session.company_uuid, user_uuid: session.user_uuid } : {}),
    domain_uuid: domainUuid,
    type,
    momentum_title: state.title.trim(),
    momentum_description: state.description.trim() || null,
    channel_uuid: state.channel.channel_uuid || null,
    momentums,
    worktime: worktimeWithEndDate(worktimeOk ? toWorktime(state.worktime) : null, momentums),
    ...experimentOf(momentums),
    ...timingOf(),
    ...journeyOf(momentums),
    ...(item ? { uuid: item.uuid } : {}),
    ...extra,
  });

  /** Spec doc 2 §8: a failed save always reads 'Não foi possível cadastrar seu Momentum…'; a refusal's reason shows inline. */
  const failed = (error: unknown) => {
    notifyError(mm.saveFailed);
    const refused = isApiError(error) && error.status >= 400 && error.status < 500 ? error : null;
    const titleError = refused?.fields?.momentum_title;
    if (titleError) setErrors((e) => ({ ...e, title: titleError }));
    setRefusal(refused?.message ?? null);
  };

  const submit = (extra: Partial<MomentumBody>) => {
    setRefusal(null);
    const draft = extra.status === 'Draft';
    const snapshot = JSON.stringify(state);
    save.mutate(bodyOf(blocks, extra, true), {
      onSuccess: (answer) => {
        notifySuccess(
          answer.message ||
            (draft ? (isDraft ? mm.draftUpdated : mm.draftSaved) : item ? mm.updated(type) : mm.created(type)),
        );
        setScheduleOpen(false);
        if (draft) {
          // A draft save stays on the page; a new draft is edited from now on (its uuid in the address).
          setSaved(snapshot);
          queryClient.setQueryData(momentumQueryKey(answer.data.uuid), answer.data);
          if (isNew) onDraftCreated?.(answer.data);
          return;
        }
        leaving.current = true;
        setTimeout(() => navigate(withDomain(listPath(type), domainUuid)), REDIRECT_DELAY_MS);
      },
      onError: failed,
    });
  };

  const saveDraftAndLeave = () => {
    if (!state.title.trim()) {
      setErrors((e) => ({ ...e, title: mm.titleRequired(type) }));
      notifyError(mm.titleRequired(type));
      blocker.reset?.();
      return;
    }
    const worktimeOk = checkWorktime(state.worktime).ok;
    save.mutate(bodyOf(draftBlocks(), { status: 'Draft', scheduled_at: null }, worktimeOk), {
      onSuccess: (answer) => {
        notifySuccess(answer.message || (isDraft ? mm.draftUpdated : mm.draftSaved));
        leaving.current = true;
        blocker.proceed?.();
      },
      onError: (error) => {
        failed(error);
        blocker.reset?.();
      },
    });
  };

  const next = () => {
    const result = validateAll();
    if (!result.ok) {
      warnIncomplete();
      return;
    }
    setBlocks(result.blocks);
    setStep('summary');
    try {
      window.scrollTo({ top: 0 });
    } catch {
      // jsdom has no scrolling.
    }
  };

  const header = (
    <Group justify="space-between" mb="lg" align="flex-start" wrap="wrap">
      <Stack gap={4}>
        <Button
          component={Link}
          to={withDomain(listPath(type), domainUuid)}
          variant="subtle"
          size="compact-sm"
          leftSection={<IconArrowLeft size={14} />}
          w="fit-content"
          px={4}
        >
          {noun.title}
        </Button>
        <Title order={2}>
          {isNew ? (type === 'campaign' ? 'Nova campanha' : 'Novo momentum') : isDraft ? 'Editar rascunho' : 'Editar'}
        </Title>
        <Text size="sm" c="dimmed">
          {step === 'form' ? 'Preencha as seções e siga para o resumo.' : 'Confira o resumo antes de salvar.'}
        </Text>
      </Stack>
      {item ? (
        <Badge size="lg" variant="light" color={STATUS_COLORS[displayStatus(item)]}>
          {statusLabel(item)}
        </Badge>
      ) : null}
    </Group>
  );

  const leaveModal = (
    <Modal
      opened={blocker.state === 'blocked'}
      onClose={() => blocker.reset?.()}
      title={isNew ? ASK_DRAFT_NEW : ASK_DRAFT_EDIT}
      size="sm"
    >
      <Text size="sm" mb="lg">
        {isNew
          ? 'Você preencheu parte do formulário. Salve como rascunho para continuar depois.'
          : 'As alterações deste rascunho ainda não foram salvas.'}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => blocker.proceed?.()} disabled={save.isPending}>
          Não
        </Button>
        <Button onClick={saveDraftAndLeave} loading={save.isPending}>
          Sim
        </Button>
      </Group>
    </Modal>
  );

  const sentExperiment = experimentOf(blocks).experiment;
  const experimentLine = sentExperiment
    ? [
        sentExperiment.variants.length
          ? `Variantes ${sentExperiment.variants.map((v) => `${v.name} ${v.weight} %`).join(', ')}.`
          : null,
        `Grupo de controle: ${sentExperiment.control_percent} % não recebe nada.`,
        // Send the winner (campaigns): the plan, then when the rest goes out and with which variant.
        sentExperiment.winner ? winnerPlanLine(sentExperiment.winner) : null,
        sentExperiment.winner
          ? winnerStatusLine(sentExperiment.winner, item?.experiment_decision, item?.scheduled_at)
          : null,
      ]
        .filter(Boolean)
        .join(' ')
    : null;

  if (step === 'summary') {
    return (
      <>
        {header}
        <MomentumSummary
          type={type}
          title={state.title.trim()}
          description={state.description.trim()}
          blocks={blocks}
          worktime={toWorktime(state.worktime)}
          siteRoot={siteRoot}
          updatedAt={item?.updated_at}
          scheduledAt={item?.scheduled_at}
        />
        <TimingSummary
          timing={timingOf()}
          isCampaign={type === 'campaign'}
          domainUuid={domainUuid}
          blocks={blocks}
          scheduledAt={item?.scheduled_at}
        />
        {isMomentum && state.steps.length ? (
          <Alert color="indigo" variant="light" mt="lg" icon={<IconRoute />} title="Jornada">
            <Stack gap={4}>
              <Text size="sm">
                Depois da primeira mensagem, {state.steps.length}{' '}
                {state.steps.length === 1 ? 'etapa de acompanhamento' : 'etapas de acompanhamento'}:
              </Text>
              {state.steps.map((s, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a step is named by its position
                <Text size="sm" key={i}>
                  Etapa {i + 1}: {describeFormStep(s)}
                </Text>
              ))}
              <Text size="sm">{describeExit(state.exit)}</Text>
            </Stack>
          </Alert>
        ) : null}
        {experimentLine ? (
          <Alert color="grape" variant="light" mt="lg" icon={<IconFlask />} title="Teste A/B">
            {experimentLine}
          </Alert>
        ) : null}
        <Stack mt="lg">
          <SimulationPanel momentum={() => bodyOf(blocks, {}, true)} />
        </Stack>
        {refusal ? (
          <Alert color="red" variant="light" mt="lg" icon={<IconAlertTriangle />}>
            {refusal}
          </Alert>
        ) : null}
        <Group justify="space-between" mt="lg">
          <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={() => setStep('form')}>
            Voltar
          </Button>
          {locked ? (
            <Button leftSection={<IconDeviceFloppy size={16} />} loading={save.isPending} onClick={() => submit({})}>
              Salvar
            </Button>
          ) : (
            <Menu position="top-end" shadow="md" width={240}>
              <Menu.Target>
                <Button
                  rightSection={<IconChevronDown size={16} />}
                  leftSection={<IconSend size={16} />}
                  loading={save.isPending}
                >
                  Planejar campanha
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item
                  leftSection={<IconRocket size={16} />}
                  onClick={() => submit({ status: 'Active', scheduled_at: null })}
                >
                  Imediato
                </Menu.Item>
                <Menu.Item leftSection={<IconCalendarEvent size={16} />} onClick={() => setScheduleOpen(true)}>
                  Agendamento
                </Menu.Item>
                <Menu.Divider />
                <Menu.Item
                  leftSection={<IconFileText size={16} />}
                  onClick={() => submit({ status: 'Draft', scheduled_at: null })}
                >
                  Rascunho
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
        <ScheduleModal
          opened={scheduleOpen}
          onClose={() => setScheduleOpen(false)}
          title={type === 'campaign' ? 'Agendar campanha' : 'Agendar momentum'}
          loading={save.isPending}
          onSchedule={(iso) => submit({ status: 'Paused', scheduled_at: iso })}
        />
        {leaveModal}
      </>
    );
  }

  const variantCount = state.experiment.ab ? state.experiment.others.length + 1 : 1;
  const shownVariant = Math.min(variant, variantCount - 1);
  /** The channel editor edits the shown variant; the channel itself is A's (one channel for every variant). */
  const editVariant = (value: ChannelState) => {
    if (shownVariant === 0) return set('channel')(value);
    const { channel_uuid, ...message } = value;
    setState((s) => ({
      ...s,
      channel: channel_uuid === s.channel.channel_uuid ? s.channel : { ...s.channel, channel_uuid },
      experiment: {
        ...s.experiment,
        others: s.experiment.others.map((o, i) => (i === shownVariant - 1 ? { ...o, ...message } : o)),
      },
    }));
    setErrors((e) => {
      if (!e.variants?.[shownVariant - 1]) return e;
      const variants = [...e.variants];
      variants[shownVariant - 1] = undefined;
      return { ...e, variants };
    });
  };

  let n = 0;
  return (
    <>
      {header}
      {locked ? (
        <Alert color="gray" icon={<IconLock />} mb="md" variant="light">
          Este item já foi publicado: o título, os filtros e os gatilhos não podem ser alterados.
        </Alert>
      ) : null}
      <Stack gap="lg">
        <FormSection n={++n} icon={<IconSignature size={20} />} title="Título" locked={locked}>
          <Stack gap="sm">
            <TextInput
              label="Título"
              placeholder={type === 'campaign' ? 'Ex.: Black Friday — aviso de ofertas' : 'Ex.: Carrinho abandonado'}
              value={state.title}
              maxLength={120}
              onChange={(e) => set('title')(e.currentTarget.value)}
              error={errors.title}
              disabled={locked}
              withAsterisk
            />
            <Textarea
              label="Descrição"
              placeholder="Opcional: para que serve este envio"
              autosize
              minRows={2}
              maxLength={2000}
              value={state.description}
              onChange={(e) => set('description')(e.currentTarget.value)}
            />
          </Stack>
        </FormSection>
        <FormSection
          n={++n}
          icon={<IconFilter size={20} />}
          title="Filtros"
          description="Quem recebe: até duas condições sobre os visitantes."
          locked={locked}
        >
          <Stack gap="sm">
            <FilterEditor
              domainUuid={domainUuid}
              value={state.filter}
              onChange={set('filter')}
              errors={errors.filter}
              disabled={locked}
            />
            <AudienceEstimate domainUuid={domainUuid} filter={state.filter} />
          </Stack>
        </FormSection>
        {isMomentum ? (
          <FormSection
            n={++n}
            icon={<IconBolt size={20} />}
            title="Gatilhos"
            description="Quando enviar: o comportamento que dispara a mensagem."
            locked={locked}
          >
            <TriggerEditor
              domainUuid={domainUuid}
              host={host}
              value={state.trigger}
              onChange={set('trigger')}
              errors={errors.trigger}
              disabled={locked}
            />
          </FormSection>
        ) : null}
        <FormSection
          n={++n}
          icon={<IconCalendarStats size={20} />}
          title="Cronograma"
          description="Opcional: limite os envios a dias e horários."
        >
          <WorktimeEditor value={state.worktime} onChange={set('worktime')} errors={errors.worktime} />
        </FormSection>
        <FormSection
          n={++n}
          icon={<IconClockPlay size={20} />}
          title="Horário de envio"
          description="Opcional: ritmo dos envios, horário de cada visitante e feriados."
        >
          <TimingEditor
            type={type}
            triggerFilter={state.trigger.filter}
            value={state.timing}
            onChange={set('timing')}
            errors={errors.timing}
          />
        </FormSection>
        <FormSection
          n={++n}
          icon={<IconSend size={20} />}
          title="Canal"
          description="A notificação push que o visitante recebe."
        >
          <Stack gap="md">
            <VariantTabs
              count={variantCount}
              active={shownVariant}
              onChange={setVariant}
              invalid={[Boolean(errors.channel), ...(errors.variants ?? []).map(Boolean)]}
            />
            <ChannelEditor
              key={shownVariant}
              domainUuid={domainUuid}
              siteRoot={siteRoot}
              value={
                shownVariant === 0
                  ? state.channel
                  : { ...state.experiment.others[shownVariant - 1]!, channel_uuid: state.channel.channel_uuid }
              }
              onChange={editVariant}
              errors={shownVariant === 0 ? errors.channel : errors.variants?.[shownVariant - 1]}
            />
          </Stack>
        </FormSection>
        <FormSection
          n={++n}
          icon={<IconFlask size={20} />}
          title="Teste A/B"
          description="Opcional: compare versões da mensagem e meça quanto ela vende a mais que o silêncio."
        >
          <ExperimentEditor
            value={state.experiment}
            onChange={(experiment) => {
              set('experiment')(experiment);
              if (!experiment.ab) setVariant(0);
            }}
            variantA={state.channel}
            errors={errors.experiment}
            campaign={type === 'campaign'}
          />
        </FormSection>
        {isMomentum ? (
          <FormSection
            n={++n}
            icon={<IconRoute size={20} />}
            title="Jornada"
            description="Opcional: até 5 mensagens de acompanhamento, cada uma depois de uma espera e de uma condição."
          >
            <JourneySection
              domainUuid={domainUuid}
              siteRoot={siteRoot}
              channelUuid={state.channel.channel_uuid}
              firstMessage={state.channel}
              steps={state.steps}
              exit={state.exit}
              errors={errors.journey}
              onSteps={(steps) => {
                set('steps')(steps);
                setErrors((e) => (e.journey ? { ...e, journey: undefined } : e));
              }}
              onExit={(exit) => {
                set('exit')(exit);
                setErrors((e) => (e.journey ? { ...e, journey: undefined } : e));
              }}
              storedCount={item?.steps?.length ?? 0}
            />
          </FormSection>
        ) : null}
        {isMomentum ? (
          <FormSection
            n={++n}
            icon={<IconFlagCheck size={20} />}
            title="Finalização"
            description="Opcional: quando parar."
          >
            <FinishEditor value={state.finish} onChange={set('finish')} errors={errors.finish} />
          </FormSection>
        ) : null}
      </Stack>
      <Group justify="flex-end" mt="lg">
        <Button size="md" rightSection={<IconArrowRight size={16} />} onClick={next}>
          Seguir
        </Button>
      </Group>
      {leaveModal}
    </>
  );
}
