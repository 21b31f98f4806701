import '@xyflow/react/dist/style.css';
import { type MomentumItem, momentumMessages as mm } from '@impeto/shared';
import { Alert, Box, Button, Flex, Group, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconArrowsMaximize,
  IconArrowsMinimize,
  IconCheck,
  IconFlask,
  IconListDetails,
} from '@tabler/icons-react';
import { ReactFlowProvider } from '@xyflow/react';
import { type CSSProperties, useEffect, useMemo, useRef, useState } from 'react';
import { Link, Navigate, useBlocker, useNavigate, useSearchParams } from 'react-router';
import { CenteredLoader } from '../../../components/ui/centered-loader.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useSelectedDomain } from '../../../lib/domain-store.ts';
import { withDomain } from '../../../lib/navigation.ts';
import { getSession } from '../../../lib/session.ts';
import { removeKey, writeJson } from '../../../lib/storage.ts';
import {
  checkExit,
  checkExperiment,
  type ExitState,
  type ExperimentState,
  exitFromWire,
  exitInput,
  experimentFromItem,
  type FieldErrors,
  ScheduleModal,
  worktimeWithEndDate,
} from '../../blocks/index.ts';
import { SimulationPanel } from '../../simulate/index.ts';
import { useDiagramMomentum } from '../api/get-momentum.ts';
import { useDomainChannels } from '../api/list-domain-channels.ts';
import { type DiagramSaveBody, useSaveDiagram } from '../api/save-momentum.ts';
import { BlockPanel, type PanelMode } from '../components/block-panel.tsx';
import { DiagramCanvas } from '../components/diagram-canvas.tsx';
import { DiagramTitleBlock } from '../components/diagram-header.tsx';
import { TourProvider, TourTarget, useTourStep } from '../components/diagram-tour.tsx';
import { ImpactIndicator } from '../components/impact-indicator.tsx';
import { type SaveChoice, SaveMenu } from '../components/save-menu.tsx';
import {
  type BlockCheck,
  blocksToForms,
  type ChannelFormState,
  channelFromBlock,
  channelInput,
  checkBlock,
  type DiagramForms,
  diagramMessages,
  formsToBlocks,
  incompleteDraftMessage,
  newForm,
  REQUIRED_BLOCKS,
  withResolvedChannel,
} from '../diagram-state.ts';
import {
  type DiagramBlockType,
  type DiagramKind,
  fromGraph,
  fromGraphSteps,
  nextBlockType,
  toGraph,
} from '../graph.ts';
import {
  checkSteps,
  type DiagramStep,
  incompleteStepMessage,
  MAX_JOURNEY_STEPS,
  newDiagramStep,
  resolveStepChannels,
  stepsFromItem,
  stepsToDraft,
} from '../journey.ts';
import { DiagramActionsContext } from '../nodes/diagram-actions.ts';

export const REDIRECT_DELAY_MS = 2000;
/** The chosen channel, as the spec keeps it (doc 2 §3.1); cleared after a successful save (§4). */
export const CHANNEL_STORAGE_KEY = 'impeto.diagram.channel_uuid';

export const listPathOf = (kind: DiagramKind) => (kind === 'campaign' ? '/v2/campaigns' : '/v2/momentums');

/** ?id= (or uuid/ref) edits, &view=1 (or mode=view / viewonly) only shows; without id, a new item. */
export function DiagramPage({ kind }: { kind: DiagramKind }) {
  const [params] = useSearchParams();
  const domainUuid = params.get('domain') ?? '';
  const id = params.get('id') ?? params.get('uuid') ?? params.get('ref');
  const viewOnly = params.get('view') === '1' || params.get('mode') === 'view' || params.has('viewonly');
  const query = useDiagramMomentum(id);
  const back = withDomain(listPathOf(kind), domainUuid);
  // After a save the item is shown as it was opened until the redirect: the saved item may now be Active, and
  // reading it again would send the user back with 'em andamento' right after the success toast.
  const [saved, setSaved] = useState(false);
  const opened = useRef(query.data);
  if (!saved) opened.current = query.data;

  if (id && query.isPending) return <CenteredLoader label="Carregando..." />;
  if (id && (query.isError || !query.data)) {
    return (
      <Alert color="red" icon={<IconAlertTriangle />} title="Não foi possível carregar este item" maw={560}>
        <Text size="sm" mb="sm">
          {errorMessage(query.error)}
        </Text>
        <Button component={Link} to={back} size="xs" variant="light" color="red">
          Voltar para a lista
        </Button>
      </Alert>
    );
  }
  const item = opened.current;
  if (item && item.status === 'Deleted' && !viewOnly)
    return <Navigate to={back} replace state={{ error: mm.notFound }} />;
  // Editing a running item is refused (spec doc 2 §2.2, READINGS A-33).
  if (item && item.status === 'Active' && !viewOnly)
    return <Navigate to={back} replace state={{ error: mm.editActive }} />;

  return (
    <TourProvider enabled={kind === 'momentum' && !item && !viewOnly}>
      <ReactFlowProvider>
        <DiagramEditor
          key={item?.uuid ?? 'new'}
          kind={kind}
          domainUuid={domainUuid}
          item={item}
          viewOnly={viewOnly}
          onSaved={() => setSaved(true)}
        />
      </ReactFlowProvider>
    </TourProvider>
  );
}

export interface DiagramEditorProps {
  kind: DiagramKind;
  domainUuid: string;
  item?: MomentumItem | undefined;
  viewOnly?: boolean;
  /** Called when the server accepted the save, before the redirect. */
  onSaved?: () => void;
}

const NO_LOCK: ReadonlySet<DiagramBlockType> = new Set();
const NON_DRAFT_LOCK: ReadonlySet<DiagramBlockType> = new Set(['filter', 'trigger']);

export const DISCARD_TITLE = 'Descartar alterações?';

export function DiagramEditor({ kind, domainUuid, item, viewOnly = false, onSaved }: DiagramEditorProps) {
  const navigate = useNavigate();
  const selectedDomain = useSelectedDomain();
  const siteRoot = selectedDomain?.domain_root ?? '';
  const host = siteRoot.replace(/^https?:\/\//, '').replace(/\/$/, '');
  const save = useSaveDiagram();
  const tourStep = useTourStep();

  const [title, setTitle] = useState(item?.momentum_title ?? '');
  const [simulateOpen, setSimulateOpen] = useState(false);
  const [impactLive, setImpactLive] = useState(false);
  const [description, setDescription] = useState(item?.momentum_description ?? '');
  const [rawForms, setForms] = useState<DiagramForms>(() =>
    item ? blocksToForms(item.momentums, kind, item.channel_uuid) : {},
  );
  /** The channel block's 'Teste A/B' (issue #25): variants B, C, … of its message, shares, control group. */
  const [experiment, setExperiment] = useState<ExperimentState<ChannelFormState>>(() =>
    experimentFromItem(item?.experiment, (v) =>
      channelFromBlock({ type: 'dispatcher', values: [v as Record<string, unknown>] }, null),
    ),
  );
  const channels = useDomainChannels(domainUuid);
  const forms = useMemo(() => withResolvedChannel(rawForms, channels.data), [rawForms, channels.data]);
  const [selected, setSelected] = useState<string | null>(null);
  /** The journey (issue #26): follow-up steps after the message block, and when a person leaves it. */
  const [rawSteps, setSteps] = useState<DiagramStep[]>(() => (kind === 'momentum' ? stepsFromItem(item?.steps) : []));
  const [exit, setExit] = useState<ExitState>(() => exitFromWire(item?.exit));
  const steps = useMemo(() => resolveStepChannels(rawSteps, channels.data), [rawSteps, channels.data]);
  const [showErrors, setShowErrors] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const [scheduleOpen, setScheduleOpen] = useState(false);
  const leaving = useRef(false);
  const [pristine] = useState(() =>
    JSON.stringify({ title, description, forms: rawForms, experiment, steps: rawSteps, exit }),
  );
  const dirty =
    !viewOnly &&
    JSON.stringify({ title, description, forms: rawForms, experiment, steps: rawSteps, exit }) !== pristine;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && !leaving.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => {
      if (leaving.current) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);

  const mode: PanelMode = viewOnly ? 'view' : item ? 'edit' : 'new';
  const isDraft = !item || item.status === 'Draft';
  const locked = item && !isDraft ? NON_DRAFT_LOCK : NO_LOCK;
  const channelUuid = forms.dispatcher?.channel_uuid ?? '';

  const blocks = useMemo(() => formsToBlocks(forms, kind), [forms, kind]);
  const checks = useMemo(() => {
    const out: Partial<Record<DiagramBlockType, BlockCheck>> = {};
    for (const block of blocks) out[block.type] = checkBlock(block, { channelUuid });
    return out;
  }, [blocks, channelUuid]);
  const stepChecks = useMemo(() => checkSteps(steps), [steps]);
  const exitErrors = useMemo(() => (steps.length ? checkExit(exit) : {}), [steps.length, exit]);
  const invalid = useMemo(
    () => new Set<string>([...blocks.filter((b) => !checks[b.type]?.ok).map((b) => b.type), ...stepChecks.keys()]),
    [blocks, checks, stepChecks],
  );
  const journeyOn = kind === 'momentum' && Boolean(forms.dispatcher);
  const draftSteps = useMemo(() => (kind === 'momentum' ? stepsToDraft(steps) : []), [kind, steps]);
  const next = viewOnly
    ? null
    : nextBlockType(
        kind,
        blocks.map((b) => b.type),
      );
  const graph = useMemo(
    () =>
      toGraph(blocks, {
        selected,
        next,
        invalid,
        readOnly: viewOnly,
        steps: draftSteps,
        canAddStep: journeyOn && !viewOnly && draftSteps.length < MAX_JOURNEY_STEPS,
      }),
    [blocks, selected, next, invalid, viewOnly, draftSteps, journeyOn],
  );
  const errors = useMemo(() => {
    const out: Partial<Record<DiagramBlockType, FieldErrors>> = {};
    for (const [type, check] of Object.entries(checks)) {
      if (!check.ok) out[type as DiagramBlockType] = check.errors;
    }
    return out;
  }, [checks]);
  // Field errors show after a save attempt; the A-1 limits show at once (a longer item opened here is red).
  /** The variants' messages and the experiment through the shared schemas; nothing without a channel block. */
  const experimentCheck = useMemo(() => {
    const a = forms.dispatcher;
    if (!a) return { errors: {}, experiment: undefined, ok: true };
    const others = experiment.ab
      ? experiment.others.map((o) => ({ ...o, channel_uuid: a.channel_uuid, channel_type: a.channel_type }))
      : [];
    const variants = others.map((o) => {
      const check = checkBlock(channelInput(o), { channelUuid });
      return check.ok ? undefined : check.errors;
    });
    const x = checkExperiment(
      experiment,
      [a, ...others].map((c) => (channelInput(c).values as unknown[])[0]),
    );
    const errors = {
      ...(variants.some(Boolean) ? { variants } : {}),
      ...(x.ok ? {} : { experiment: x.errors }),
    };
    return { errors, experiment: x.ok ? x.experiment : undefined, ok: Object.keys(errors).length === 0 };
  }, [forms.dispatcher, experiment, channelUuid]);
  const experimentOf = () => (experimentCheck.experiment ? { experiment: experimentCheck.experiment } : {});

  const shownErrors = useMemo(() => {
    if (showErrors) return errors;
    const push = errors.dispatcher;
    const limits: FieldErrors = {};
    if (push?.title === diagramMessages.titleTooLong) limits.title = push.title;
    if (push?.message === diagramMessages.messageTooLong) limits.message = push.message;
    return Object.keys(limits).length ? { dispatcher: limits } : {};
  }, [showErrors, errors]);

  useEffect(() => {
    if (tourStep !== null && tourStep >= 2 && tourStep <= 4) setSelected(null);
  }, [tourStep]);

  const back = withDomain(listPathOf(kind), domainUuid);
  const readOnlyPanel = viewOnly;

  const addBlock = (type: DiagramBlockType) => {
    if (viewOnly || type !== next) return;
    setForms((f) => ({ ...f, [type]: newForm(type) }));
    setSelected(type);
  };
  const removeBlock = (type: DiagramBlockType) => {
    setForms((f) => {
      const { [type]: _removed, ...rest } = f;
      return rest;
    });
    setSelected(null);
  };
  const addStep = () => {
    if (viewOnly || !journeyOn || rawSteps.length >= MAX_JOURNEY_STEPS) return;
    const previous = steps.at(-1)?.message ?? forms.dispatcher;
    setSteps((list) => [...list, newDiagramStep(previous)]);
    setSelected(`step-${rawSteps.length + 1}-wait`);
  };
  const changeStep = (index: number, step: DiagramStep) =>
    setSteps((list) => list.map((s, i) => (i === index ? step : s)));
  const removeStep = (index: number) => setSteps((list) => list.filter((_, i) => i !== index));
  const journeyErrors = useMemo(() => (showErrors ? stepChecks : new Map()), [showErrors, stepChecks]);
  const diagramActions = { addBlock, addStep };

  const changeForm = <T extends DiagramBlockType>(type: T, form: NonNullable<DiagramForms[T]>) => {
    setForms((f) => ({ ...withResolvedChannel(f, channels.data), [type]: form }));
    if (type === 'dispatcher') {
      const uuid = (form as NonNullable<DiagramForms['dispatcher']>).channel_uuid;
      if (uuid && uuid !== channelUuid) writeJson('session', CHANNEL_STORAGE_KEY, uuid);
    }
  };

  const warn = (message: string) => notifications.show({ color: 'yellow', title: 'Atenção', message });

  /**
   * `steps` and `exit` beside `momentums`, read back from the board (issue #26); none without steps, except an edit
   * that removed every step of a journey (`steps: []` ends it).
   */
  const journeyOf = () => {
    const onBoard = kind === 'momentum' ? fromGraphSteps(graph) : [];
    if (onBoard.length) return { steps: onBoard, exit: exitInput(exit) };
    return item?.steps?.length ? { steps: [] } : {};
  };

  /** The blocks read back from the board, checked; null (with the reason shown) when they cannot be saved. */
  function collect(choice: SaveChoice | 'keep'): unknown[] | null {
    const onBoard = fromGraph(graph);
    if (!experimentCheck.ok && onBoard.some((b) => b.type === 'dispatcher')) {
      setShowErrors(true);
      setSelected('dispatcher');
      warn(mm.incomplete);
      return null;
    }
    const onBoardSteps = fromGraphSteps(graph);
    const failingStep = onBoardSteps.length ? [...stepChecks.keys()][0] : undefined;
    if (failingStep || (onBoardSteps.length && Object.keys(exitErrors).length)) {
      setShowErrors(true);
      setSelected(failingStep ?? null);
      warn(failingStep ? incompleteStepMessage(failingStep) : 'Complete o filtro de saída da jornada para salvar.');
      return null;
    }
    const results = onBoard.map((block) => ({ block, check: checkBlock(block, { channelUuid }) }));
    const push = results.find((r) => r.block.type === 'dispatcher')?.check;
    const overLimit =
      push &&
      !push.ok &&
      (push.errors.title === diagramMessages.titleTooLong || push.errors.message === diagramMessages.messageTooLong);
    if (overLimit) {
      setSelected('dispatcher');
      warn(
        push.errors.title === diagramMessages.titleTooLong
          ? diagramMessages.titleTooLong
          : diagramMessages.messageTooLong,
      );
      return null;
    }
    if (choice === 'draft') {
      const incomplete = results.find((r) => !r.check.ok);
      if (incomplete && !incomplete.check.ok) {
        setShowErrors(true);
        setSelected(incomplete.block.type);
        warn(incompleteDraftMessage(incomplete.block.type, incomplete.check.errors));
        return null;
      }
      return results.map((r) => (r.check as { block: unknown }).block);
    }
    const missing = REQUIRED_BLOCKS[kind].filter((t) => !onBoard.some((b) => b.type === t));
    if (missing.length) {
      warn(mm.blocksRequired(kind));
      return null;
    }
    const failing = results.find((r) => !r.check.ok);
    if (failing) {
      setShowErrors(true);
      setSelected(failing.block.type);
      warn(mm.incomplete);
      return null;
    }
    return results.map((r) => (r.check as { block: unknown }).block);
  }

  function submit(choice: SaveChoice | 'keep', scheduledAt: string | null = null) {
    if (!title.trim()) {
      warn(mm.titleRequired(kind));
      return;
    }
    const momentums = collect(choice);
    if (!momentums) return;
    const status =
      choice === 'draft' ? 'Draft' : choice === 'schedule' ? 'Paused' : choice === 'now' ? 'Active' : undefined;
    const worktime = worktimeWithEndDate(item?.worktime, momentums);
    const session = getSession();
    const body: DiagramSaveBody = {
      ...(item ? { uuid: item.uuid } : {}),
      ...(session ? { company_uuid: session.company_uuid, user_uuid: session.user_uuid } : {}),
      domain_uuid: domainUuid,
      type: kind,
      momentum_title: title.trim(),
      momentum_description: description.trim() || null,
      ...(status ? { status } : {}),
      scheduled_at: choice === 'schedule' ? scheduledAt : choice === 'keep' ? (item?.scheduled_at ?? null) : null,
      channel_uuid: channelUuid || null,
      momentums,
      // The diagram has no Cronograma; an edit keeps the one the v2 form set, with the finish as its end_date.
      ...(worktime ? { worktime } : {}),
      ...experimentOf(),
      ...journeyOf(),
    };
    save.mutate(body, {
      onSuccess: (answer) => {
        const fallback =
          status === 'Draft' ? (item ? mm.draftUpdated : mm.draftSaved) : item ? mm.updated(kind) : mm.created(kind);
        notifications.show({ color: 'green', title: 'Sucesso', message: answer.message || fallback });
        removeKey('session', CHANNEL_STORAGE_KEY);
        setScheduleOpen(false);
        leaving.current = true;
        onSaved?.();
        setTimeout(() => navigate(back), REDIRECT_DELAY_MS);
      },
      onError: (error) => warn(errorMessage(error)),
    });
  }

  const onChoose = (choice: SaveChoice) => {
    if (choice !== 'schedule') return submit(choice);
    if (!title.trim()) return warn(mm.titleRequired(kind));
    if (collect('schedule')) setScheduleOpen(true);
  };

  /** The board as the body of /momentum/create, for 'Simular'; null while a block on it is incomplete. */
  const simulationBody = () => {
    const checked = fromGraph(graph).map((block) => checkBlock(block, { channelUuid }));
    if (checked.some((c) => !c.ok)) return null;
    const momentums = checked.map((c) => (c as { block: unknown }).block);
    const worktime = worktimeWithEndDate(item?.worktime, momentums);
    return {
      ...(item ? { uuid: item.uuid } : {}),
      domain_uuid: domainUuid,
      type: kind,
      momentum_title: title.trim(),
      momentums,
      ...(worktime ? { worktime } : {}),
      ...(item?.scheduled_at ? { scheduled_at: item.scheduled_at } : {}),
      ...experimentOf(),
      ...journeyOf(),
    };
  };

  const filterBlock = blocks.find((b) => b.type === 'filter');
  const impact = filterBlock ? (
    <ImpactIndicator
      key={JSON.stringify(filterBlock)}
      domainUuid={domainUuid}
      getBlocks={() => {
        const check = checks.filter;
        if (!check?.ok) return null;
        return blocks.map((b) => (b.type === 'filter' ? check.block : b));
      }}
      onInvalid={() => {
        setShowErrors(true);
        setSelected('filter');
        warn('Complete o filtro para calcular o impacto.');
      }}
      live={impactLive}
      onCalculated={() => setImpactLive(true)}
    />
  ) : null;

  // Side by side from Mantine's md (62em), the page fills the window; below it the board, the panel and the save
  // bar are stacked at their own heights and the page scrolls.
  const wide = useMediaQuery('(min-width: 62em)', undefined, { getInitialValueInEffect: false }) ?? false;
  const boardStyle: CSSProperties = expanded
    ? { position: 'fixed', inset: 0, zIndex: 190, background: 'var(--mantine-color-gray-0)', padding: 16 }
    : wide
      ? { height: 'calc(100dvh - 60px - 44px - 2 * var(--mantine-spacing-lg))', minHeight: 560 }
      : {};

  return (
    <Stack gap="sm" style={boardStyle} data-expanded={expanded}>
      <Group justify="space-between" align="flex-start" wrap={wide ? 'nowrap' : 'wrap'}>
        <DiagramTitleBlock
          kind={kind}
          title={title}
          description={description}
          onTitle={setTitle}
          onDescription={setDescription}
          titleLocked={!isDraft}
          readOnly={viewOnly}
        />
        <Group gap="xs" wrap={wide ? 'nowrap' : 'wrap'}>
          {item ? (
            <Button
              component={Link}
              to={withDomain(`/v2/deliveries?id=${item.uuid}`, domainUuid)}
              variant="default"
              size="sm"
              leftSection={<IconListDetails size={16} />}
            >
              Entregas
            </Button>
          ) : null}
          <Button
            variant="default"
            size="sm"
            leftSection={<IconFlask size={16} />}
            onClick={() => setSimulateOpen(true)}
          >
            Simular
          </Button>
          <Tooltip label={expanded ? 'Recolher o quadro' : 'Expandir o quadro (esconde o menu lateral)'}>
            <Button
              variant="default"
              size="sm"
              leftSection={expanded ? <IconArrowsMinimize size={16} /> : <IconArrowsMaximize size={16} />}
              onClick={() => setExpanded((e) => !e)}
            >
              {expanded ? 'Recolher' : 'Expandir'}
            </Button>
          </Tooltip>
        </Group>
      </Group>

      {/* Canvas beside the block panel on wide screens; on a phone the panel goes under the canvas. */}
      <Flex
        gap="sm"
        align="stretch"
        direction={{ base: 'column', md: 'row' }}
        flex={wide || expanded ? 1 : undefined}
        mih={0}
      >
        <Box
          flex={wide || expanded ? 1 : undefined}
          miw={0}
          h={wide || expanded ? undefined : 380}
          style={{
            border: '1px solid var(--mantine-color-gray-3)',
            borderRadius: 'var(--mantine-radius-md)',
            overflow: 'hidden',
            background: 'var(--mantine-color-white)',
          }}
        >
          <DiagramActionsContext.Provider value={diagramActions}>
            <DiagramCanvas
              graph={graph}
              onSelect={setSelected}
              fitSignature={`${graph.nodes.length}:${expanded}:${wide}`}
              topLeft={impact}
              compact={!wide && !expanded}
            />
          </DiagramActionsContext.Provider>
        </Box>
        {/* Wider on wide screens: the forms' two-column rows (Tipo de gatilho | Comparação) show whole values. */}
        <Box w={{ base: '100%', md: 460, xl: 560 }} miw={{ base: 0, md: 380 }} style={{ flexShrink: 0 }}>
          <BlockPanel
            kind={kind}
            mode={mode}
            forms={forms}
            next={next}
            selected={selected}
            errors={shownErrors}
            locked={locked}
            domainUuid={domainUuid}
            siteRoot={siteRoot}
            host={host}
            onSelect={setSelected}
            onAdd={addBlock}
            onRemove={removeBlock}
            onChange={changeForm}
            experiment={experiment}
            onExperimentChange={setExperiment}
            experimentErrors={showErrors ? experimentCheck.errors : {}}
            journey={
              journeyOn
                ? {
                    steps,
                    exit,
                    errors: journeyErrors,
                    invalid,
                    exitErrors: showErrors ? exitErrors : {},
                    readOnly: viewOnly,
                    onAdd: addStep,
                    onChange: changeStep,
                    onRemove: removeStep,
                    onExit: setExit,
                  }
                : undefined
            }
          />
        </Box>
      </Flex>

      <Group justify="space-between">
        <Button component={Link} to={back} variant="default" leftSection={<IconArrowLeft size={16} />}>
          Voltar
        </Button>
        {readOnlyPanel ? (
          <Button component={Link} to={back} leftSection={<IconCheck size={16} />}>
            OK
          </Button>
        ) : (
          <TourTarget step={5}>
            <SaveMenu
              loading={save.isPending || (save.isSuccess && leaving.current)}
              onChoose={onChoose}
              single={Boolean(item && !isDraft)}
              onSave={() => submit('keep')}
            />
          </TourTarget>
        )}
      </Group>

      <Modal
        opened={simulateOpen}
        onClose={() => setSimulateOpen(false)}
        title={kind === 'campaign' ? 'Simular campanha' : 'Simular momentum'}
        size="xl"
        zIndex={400}
      >
        <SimulationPanel
          momentum={simulationBody}
          incompleteMessage="Complete os blocos do diagrama (gatilho e canal) para simular."
        />
      </Modal>

      <ScheduleModal
        title={kind === 'campaign' ? 'Agendar campanha' : 'Agendar momentum'}
        zIndex={400}
        opened={scheduleOpen}
        onClose={() => setScheduleOpen(false)}
        loading={save.isPending}
        onSchedule={(iso) => submit('schedule', iso)}
      />

      <Modal
        opened={blocker.state === 'blocked'}
        onClose={() => blocker.reset?.()}
        title={DISCARD_TITLE}
        centered
        zIndex={400}
      >
        <Text size="sm">
          {kind === 'campaign' ? 'Esta campanha tem' : 'Este momentum tem'} alterações que ainda não foram salvas. Se
          sair agora, elas serão perdidas.
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => blocker.reset?.()}>
            Continuar editando
          </Button>
          <Button color="red" onClick={() => blocker.proceed?.()}>
            Descartar
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
