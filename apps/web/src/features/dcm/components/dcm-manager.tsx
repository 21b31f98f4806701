import { dcmMessages, type MomentumItem, momentumMessages as mm } from '@impeto/shared';
import { Alert, Badge, Box, Button, Group, Modal, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import {
  IconArrowLeft,
  IconBolt,
  IconCalendarStats,
  IconCode,
  IconDeviceFloppy,
  IconEye,
  IconFilter,
  IconFlagCheck,
  IconFlask,
  IconLock,
} from '@tabler/icons-react';
import { useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { FormSection } from '../../../components/ui/form-section.tsx';
import { withDomain } from '../../../lib/navigation.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import {
  blockOf,
  checkExperiment,
  checkFilter,
  checkFinishFuture,
  type ExperimentState,
  emptyFilter,
  emptyFinish,
  emptyTrigger,
  emptyWorktime,
  experimentFromItem,
  type FieldErrors,
  FilterEditor,
  type FilterState,
  FinishEditor,
  type FinishState,
  filterFromBlock,
  finishFromBlock,
  REDIRECT_DELAY_MS,
  saveFailedMessage,
  TriggerEditor,
  type TriggerState,
  toWorktime,
  triggerFromBlock,
  WorktimeEditor,
  type WorktimeState,
  warnIncomplete,
  worktimeErrors,
  worktimeFromItem,
} from '../../blocks/index.ts';
import {
  displayStatus,
  listPath,
  type MomentumBody,
  STATUS_COLORS,
  statusLabel,
  useSaveMomentum,
} from '../../momentums/index.ts';
import { SimulationPanel } from '../../simulate/index.ts';
import {
  bytes,
  checkDcm,
  checkDcmTrigger,
  checkTags,
  DCM_TRIGGER_TYPES,
  type DcmDispatcherState,
  type DcmTagsState,
  DISPATCHER_LABELS,
  dcmBlockInput,
  dcmFromBlock,
  emptyDispatcher,
  emptyTags,
  formatBytes,
  OPTIN_LABELS,
  TEMPLATE_LABELS,
} from '../dcm-state.ts';
import { type DcmExperimentErrors, DcmVariants } from './dcm-variants.tsx';
import { DispatcherPreview } from './dispatcher-preview.tsx';
import { LastStepsModal, type ScheduleChoice } from './last-steps-modal.tsx';

interface ManagerState {
  title: string;
  description: string;
  filter: FilterState;
  trigger: TriggerState;
  worktime: WorktimeState;
  tags: DcmTagsState;
  dispatcher: DcmDispatcherState;
  finish: FinishState;
  /** 'Teste A/B' (issue #25): variants B, C, … of the tags, shares and control group. */
  experiment: ExperimentState<DcmTagsState>;
}
type Errors = Partial<Record<'filter' | 'trigger' | 'worktime' | 'tags' | 'dispatcher' | 'finish', FieldErrors>> & {
  title?: string;
  experiment?: DcmExperimentErrors;
};

function initialState(item: MomentumItem | undefined): ManagerState {
  const dcm = dcmFromBlock(blockOf(item?.momentums, 'dispatcher'));
  return {
    title: item?.momentum_title ?? '',
    description: item?.momentum_description ?? '',
    filter: item ? filterFromBlock(blockOf(item.momentums, 'filter')) : emptyFilter(),
    trigger: item ? triggerFromBlock(blockOf(item.momentums, 'trigger')) : { ...emptyTrigger(), filter: 'pageview' },
    worktime: item ? worktimeFromItem(item.worktime) : emptyWorktime(),
    tags: item ? dcm.tags : emptyTags(),
    dispatcher: item ? dcm.dispatcher : emptyDispatcher(),
    finish: item ? finishFromBlock(blockOf(item.momentums, 'finish')) : emptyFinish(),
    experiment: experimentFromItem(item?.experiment, (v) => dcmFromBlock({ values: [v] }).tags),
  };
}

/**
 * The variants' tags (each through the same checks as the item's own) and the experiment through the shared schema,
 * every variant a CELL_DCM value with the item's 'Últimos passos' choice. `chosen`: that choice is made (Salvar's
 * second step), so an empty selector or editor is judged.
 */
function checkDcmExperiment(state: ManagerState, chosen: boolean) {
  const others = state.experiment.ab ? state.experiment.others : [];
  const variants = others.map((o) => {
    const e = checkTags(o, state.dispatcher.dispatcher_type, chosen);
    return Object.keys(e).length ? e : undefined;
  });
  const x = checkExperiment(
    state.experiment,
    [state.tags, ...others].map((t) => dcmBlockInput(t, state.dispatcher)),
  );
  const errors: DcmExperimentErrors = {
    ...(variants.some(Boolean) ? { variants } : {}),
    ...(x.ok ? {} : { experiment: x.errors }),
  };
  return { errors, experiment: x.ok ? x.experiment : undefined, ok: Object.keys(errors).length === 0 };
}

export interface DcmManagerProps {
  domainUuid: string;
  siteRoot: string;
  item?: MomentumItem;
  viewOnly?: boolean;
}

/** /dcm/manager: Filtro, Gatilho, Cronograma, Tags customizadas and Finalização; Salvar opens 'Últimos passos'. */
export function DcmManager({ domainUuid, siteRoot, item, viewOnly = false }: DcmManagerProps) {
  const navigate = useNavigate();
  const save = useSaveMomentum();
  const initial = useMemo(() => initialState(item), [item]);
  const [state, setState] = useState<ManagerState>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [lastSteps, setLastSteps] = useState(false);
  const [simulateOpen, setSimulateOpen] = useState(false);
  const blocksRef = useRef<unknown[]>([]);
  const isDraft = item?.status === 'Draft';
  /** An existing non-draft item keeps its title, filter, trigger and status (READINGS A-33). */
  const locked = Boolean(item) && !isDraft;
  const host = (() => {
    try {
      return new URL(siteRoot).host;
    } catch {
      return siteRoot;
    }
  })();
  const back = withDomain(listPath('dcm'), domainUuid);

  const set =
    <K extends keyof ManagerState>(key: K) =>
    (value: ManagerState[K]) => {
      setState((s) => ({ ...s, [key]: value }));
      if (key !== 'description') setErrors((e) => (e[key as keyof Errors] ? { ...e, [key]: undefined } : e));
    };

  /** Salvar: every block checked; nothing is sent while the trigger lacks its comparison or a value (§5). */
  function openLastSteps() {
    const next: Errors = {};
    const blocks: unknown[] = [];
    const original = (t: string) => blockOf(item?.momentums, t);
    if (!state.title.trim()) next.title = mm.titleRequired('dcm');
    if (locked && original('filter')) blocks.push(original('filter'));
    else {
      const f = checkFilter(state.filter);
      if (f.ok) blocks.push(f.block);
      else next.filter = f.errors;
    }
    if (locked && original('trigger')) blocks.push(original('trigger'));
    else {
      const t = checkDcmTrigger(state.trigger);
      if (t.ok) blocks.push(t.block);
      else next.trigger = t.errors;
    }
    const w = worktimeErrors(state.worktime);
    if (w) next.worktime = w;
    const tags = checkTags(state.tags, state.dispatcher.dispatcher_type, false);
    if (Object.keys(tags).length) next.tags = tags;
    const x = checkDcmExperiment(state, false);
    if (!x.ok) next.experiment = x.errors;
    if (state.finish.enabled) {
      const fin = checkFinishFuture(state.finish);
      if (fin.ok) blocks.push(fin.block);
      else next.finish = fin.errors;
    }
    setErrors(next);
    if (Object.keys(next).some((k) => next[k as keyof Errors])) return warnIncomplete();
    blocksRef.current = blocks;
    setLastSteps(true);
  }

  function submit(schedule: ScheduleChoice | null) {
    const tagErrors = checkTags(state.tags, state.dispatcher.dispatcher_type);
    if (Object.keys(tagErrors).length) {
      setErrors((e) => ({ ...e, tags: tagErrors }));
      setLastSteps(false);
      return warnIncomplete();
    }
    const x = checkDcmExperiment(state, true);
    if (!x.ok) {
      setErrors((e) => ({ ...e, experiment: x.errors }));
      setLastSteps(false);
      return warnIncomplete();
    }
    const dispatcher = checkDcm(state.tags, state.dispatcher);
    if (!dispatcher.ok) return setErrors((e) => ({ ...e, dispatcher: dispatcher.errors }));
    const [filter, trigger, finish] = blocksRef.current;
    const body: MomentumBody = {
      domain_uuid: domainUuid,
      type: 'dcm',
      momentum_title: state.title.trim(),
      momentum_description: state.description.trim() || null,
      channel_uuid: null,
      momentums: [filter, trigger, dispatcher.block, ...(finish ? [finish] : [])],
      worktime: toWorktime(state.worktime),
      ...(x.experiment ? { experiment: x.experiment } : {}),
      ...(item ? { uuid: item.uuid } : {}),
      ...(schedule ?? {}),
    };
    save.mutate(body, {
      onSuccess: (answer) => {
        notifySuccess(answer.message || (item ? mm.updated('dcm') : mm.created('dcm')));
        setLastSteps(false);
        setTimeout(() => navigate(back), REDIRECT_DELAY_MS);
      },
      onError: (error) => notifyError(saveFailedMessage(error, dcmMessages.saveFailed)),
    });
  }

  /** The manager's state as the body of /momentum/create, for 'Simular'; null while a block is incomplete. */
  const simulationBody = () => {
    const original = (t: string) => blockOf(item?.momentums, t);
    const f =
      locked && original('filter') ? { ok: true as const, block: original('filter') } : checkFilter(state.filter);
    const t =
      locked && original('trigger')
        ? { ok: true as const, block: original('trigger') }
        : checkDcmTrigger(state.trigger);
    const d = checkDcm(state.tags, state.dispatcher);
    if (!f.ok || !t.ok || !d.ok) return null;
    const fin = state.finish.enabled ? checkFinishFuture(state.finish) : null;
    return {
      domain_uuid: domainUuid,
      type: 'dcm',
      momentum_title: state.title.trim(),
      momentums: [f.block, t.block, d.block, ...(fin?.ok ? [fin.block] : [])],
      worktime: worktimeErrors(state.worktime) ? null : toWorktime(state.worktime),
      ...(item ? { uuid: item.uuid } : {}),
    };
  };

  const codeSummary = (() => {
    const parts = [
      ['HTML', state.tags.customHtml],
      ['CSS', state.tags.customCss],
      ['JavaScript', state.tags.customJs],
    ]
      .filter(([, code]) => code?.trim())
      .map(([name, code]) => `${name} (${formatBytes(bytes(code ?? ''))})`);
    const where = `${state.tags.htmlElement.trim()} · ${state.tags.tagBehavior}`;
    return parts.length
      ? `${parts.join(', ')} em ${where}.`
      : 'Nenhum código preenchido: volte e escreva o HTML, o CSS ou o JavaScript.';
  })();

  const heading = viewOnly
    ? 'Visualizar conteúdo'
    : item
      ? isDraft
        ? 'Editar rascunho'
        : 'Editar conteúdo'
      : 'Novo conteúdo';
  let n = 0;
  return (
    <>
      <Group justify="space-between" mb="lg" align="flex-start" wrap="wrap">
        <Stack gap={4}>
          <Button
            component={Link}
            to={back}
            variant="subtle"
            size="compact-sm"
            leftSection={<IconArrowLeft size={14} />}
            w="fit-content"
            px={4}
          >
            GCD
          </Button>
          <Title order={2}>{heading}</Title>
          <Text size="sm" c="dimmed">
            {viewOnly ? 'Somente leitura.' : 'Escolha quem vê, quando e onde o conteúdo entra nas páginas do seu site.'}
          </Text>
        </Stack>
        {item ? (
          <Badge size="lg" variant="light" color={STATUS_COLORS[displayStatus(item)]}>
            {statusLabel(item)}
          </Badge>
        ) : null}
      </Group>
      {locked && !viewOnly ? (
        <Alert color="gray" icon={<IconLock />} mb="md" variant="light">
          Este conteúdo já foi publicado: o título, o filtro e o gatilho não podem ser alterados.
        </Alert>
      ) : null}
      <Stack gap="lg">
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
          <Stack gap="sm">
            <TextInput
              label="Título"
              placeholder="Ex.: Selo de frete grátis na vitrine"
              value={state.title}
              maxLength={120}
              onChange={(e) => set('title')(e.currentTarget.value)}
              error={errors.title}
              disabled={locked || viewOnly}
              withAsterisk
            />
            <Textarea
              label="Descrição"
              placeholder="Opcional: para que serve este conteúdo"
              autosize
              minRows={1}
              maxLength={2000}
              value={state.description}
              onChange={(e) => set('description')(e.currentTarget.value)}
              disabled={viewOnly}
            />
          </Stack>
        </Paper>
        <FormSection
          n={++n}
          icon={<IconFilter size={20} />}
          title="Filtro"
          description="Quem vê: até duas condições sobre os visitantes; desligado, todos."
          locked={locked}
        >
          <FilterEditor
            domainUuid={domainUuid}
            value={state.filter}
            onChange={set('filter')}
            errors={errors.filter}
            disabled={locked || viewOnly}
          />
        </FormSection>
        <FormSection
          n={++n}
          icon={<IconBolt size={20} />}
          title="Gatilho"
          description="Em quais páginas ou eventos o conteúdo entra."
          locked={locked}
        >
          <TriggerEditor
            domainUuid={domainUuid}
            host={host}
            value={state.trigger}
            onChange={set('trigger')}
            errors={errors.trigger}
            disabled={locked || viewOnly}
            types={DCM_TRIGGER_TYPES}
          />
        </FormSection>
        <FormSection
          n={++n}
          icon={<IconCalendarStats size={20} />}
          title="Cronograma"
          description="Opcional: mostre só em alguns dias e horários."
        >
          <WorktimeEditor
            value={state.worktime}
            onChange={set('worktime')}
            errors={errors.worktime}
            disabled={viewOnly}
          />
        </FormSection>
        <FormSection
          n={++n}
          icon={<IconCode size={20} />}
          title="Tags customizadas"
          description="Onde e como o conteúdo entra na página, e o seu HTML, CSS e JavaScript."
        >
          <DcmVariants
            value={state.tags}
            onChange={set('tags')}
            errors={errors.tags}
            disabled={viewOnly}
            selectorRequired={state.dispatcher.dispatcher_type === 'custom'}
            experiment={state.experiment}
            onExperimentChange={set('experiment')}
            experimentErrors={errors.experiment ?? {}}
          />
        </FormSection>
        {viewOnly ? (
          <FormSection
            icon={<IconEye size={20} />}
            title="O que exibir"
            description="Escolhido em 'Últimos passos'."
            aside={
              <Badge variant="light" size="lg" tt="none">
                {DISPATCHER_LABELS[state.dispatcher.dispatcher_type]}
                {state.dispatcher.dispatcher_type === 'template'
                  ? `: ${TEMPLATE_LABELS[state.dispatcher.template]}`
                  : state.dispatcher.dispatcher_type === 'optin'
                    ? `: ${OPTIN_LABELS[state.dispatcher.optin].label}`
                    : ''}
              </Badge>
            }
          >
            {state.dispatcher.dispatcher_type === 'custom' ? (
              <Text size="sm" c="dimmed">
                {codeSummary}
              </Text>
            ) : (
              <Box maw={560}>
                <DispatcherPreview value={state.dispatcher} host={host} />
              </Box>
            )}
          </FormSection>
        ) : null}
        <FormSection
          n={++n}
          icon={<IconFlagCheck size={20} />}
          title="Finalização"
          description="Opcional: quando parar."
        >
          <FinishEditor value={state.finish} onChange={set('finish')} errors={errors.finish} disabled={viewOnly} />
        </FormSection>
      </Stack>
      <Group justify="flex-end" mt="lg" gap="sm">
        <Button variant="default" leftSection={<IconFlask size={16} />} onClick={() => setSimulateOpen(true)}>
          Simular
        </Button>
        {viewOnly ? (
          <Button component={Link} to={back} variant="default" leftSection={<IconArrowLeft size={16} />}>
            Voltar
          </Button>
        ) : (
          <>
            <Button component={Link} to={back} variant="default">
              Cancelar
            </Button>
            <Button size="md" leftSection={<IconDeviceFloppy size={16} />} onClick={openLastSteps}>
              Salvar
            </Button>
          </>
        )}
      </Group>
      <Modal opened={simulateOpen} onClose={() => setSimulateOpen(false)} title="Simular conteúdo do GCD" size="xl">
        <SimulationPanel
          momentum={simulationBody}
          incompleteMessage="Complete o filtro, o gatilho e as tags customizadas para simular."
        />
      </Modal>
      {viewOnly ? null : (
        <LastStepsModal
          opened={lastSteps}
          onClose={() => setLastSteps(false)}
          value={state.dispatcher}
          onChange={(dispatcher) => {
            setState((s) => ({ ...s, dispatcher }));
            setErrors((e) => ({ ...e, dispatcher: undefined }));
          }}
          errors={errors.dispatcher ?? {}}
          keepsStatus={locked}
          host={host}
          codeSummary={codeSummary}
          loading={save.isPending}
          onSave={submit}
        />
      )}
    </>
  );
}
