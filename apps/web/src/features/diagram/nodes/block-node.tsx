import { Badge, Card, Group, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconPlus } from '@tabler/icons-react';
import { Handle, type NodeProps, type NodeTypes, Position } from '@xyflow/react';
import { BLOCK_META, STEP_META, stepLabel, summarizeBlock, summarizeStepNode } from '../block-meta.ts';
import type { AddNode, AddStepNode, BlockNode, DiagramBlockType, StepNode, StepNodeType } from '../graph.ts';
import { useDiagramActions } from './diagram-actions.ts';

export const NODE_WIDTH = 300;

const handleStyle = { opacity: 0, pointerEvents: 'none' } as const;

function BlockCard({ data, selected, type }: NodeProps<BlockNode>) {
  const meta = BLOCK_META[type as DiagramBlockType];
  const Icon = meta.icon;
  return (
    <Card
      withBorder
      radius="md"
      padding="sm"
      w={NODE_WIDTH}
      shadow={selected ? 'md' : 'xs'}
      data-testid={`diagram-node-${type}`}
      style={{
        borderColor: selected ? `var(--mantine-color-${meta.color}-5)` : undefined,
        borderWidth: selected ? 2 : 1,
        cursor: 'pointer',
      }}
    >
      <Handle type="target" position={Position.Top} style={handleStyle} isConnectable={false} />
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon size={38} radius="md" variant="light" color={meta.color}>
          <Icon size={20} />
        </ThemeIcon>
        <Stack gap={2} miw={0} flex={1}>
          <Group justify="space-between" gap={4} wrap="nowrap">
            <Text fw={700} size="sm">
              {meta.label}
            </Text>
            {data.invalid && !data.readOnly ? (
              <Badge size="xs" color="yellow" variant="light" leftSection={<IconAlertCircle size={10} />}>
                Incompleto
              </Badge>
            ) : (
              <Badge size="xs" color="gray" variant="transparent" leftSection={<IconCircleCheck size={10} />}>
                Passo {data.step}
              </Badge>
            )}
          </Group>
          {/* Whole on the board (three lines at most; the full text in the tooltip past that). */}
          <Text
            size="xs"
            c="dimmed"
            lineClamp={3}
            title={summarizeBlock(data.block)}
            style={{ overflowWrap: 'anywhere' }}
          >
            {summarizeBlock(data.block)}
          </Text>
        </Stack>
      </Group>
      <Handle type="source" position={Position.Bottom} style={handleStyle} isConnectable={false} />
    </Card>
  );
}

function AddBlockNode({ data }: NodeProps<AddNode>) {
  const { addBlock } = useDiagramActions();
  const meta = BLOCK_META[data.next];
  return (
    <UnstyledButton
      onClick={() => addBlock(data.next)}
      aria-label={`Adicionar bloco ${meta.label} no diagrama`}
      w={NODE_WIDTH}
      className="nodrag"
      style={{
        border: '2px dashed var(--mantine-color-gray-4)',
        borderRadius: 'var(--mantine-radius-md)',
        padding: '14px 12px',
        background: 'var(--mantine-color-white)',
        textAlign: 'center',
      }}
    >
      <Handle type="target" position={Position.Top} style={handleStyle} isConnectable={false} />
      <Group gap={6} justify="center">
        <IconPlus size={16} color={`var(--mantine-color-${meta.color}-6)`} />
        <Text size="sm" fw={600} c="dimmed">
          Adicionar {meta.label}
        </Text>
      </Group>
    </UnstyledButton>
  );
}

/** A journey step's wait, condition or message (issue #26): the same card, with its step named in the badge. */
function StepCard({ data, selected, type, id }: NodeProps<StepNode>) {
  const meta = STEP_META[type as StepNodeType];
  const Icon = meta.icon;
  const summary = summarizeStepNode(data);
  const branch = data.part === 'otherwise' ? 'otherwise' : 'main';
  return (
    <Card
      withBorder
      radius="md"
      padding="sm"
      w={NODE_WIDTH}
      shadow={selected ? 'md' : 'xs'}
      data-testid={`diagram-node-${id}`}
      aria-label={`${stepLabel(data.step, branch)}: ${meta.label}`}
      style={{
        borderColor: selected ? `var(--mantine-color-${meta.color}-5)` : undefined,
        borderWidth: selected ? 2 : 1,
        borderStyle: type === 'message' ? 'solid' : 'dashed',
        cursor: 'pointer',
      }}
    >
      <Handle type="target" position={Position.Top} style={handleStyle} isConnectable={false} />
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon size={type === 'message' ? 38 : 30} radius="md" variant="light" color={meta.color}>
          <Icon size={type === 'message' ? 20 : 16} />
        </ThemeIcon>
        <Stack gap={2} miw={0} flex={1}>
          <Group justify="space-between" gap={4} wrap="nowrap">
            <Text fw={700} size="sm">
              {meta.label}
            </Text>
            {data.invalid && !data.readOnly ? (
              <Badge size="xs" color="yellow" variant="light" leftSection={<IconAlertCircle size={10} />}>
                Incompleto
              </Badge>
            ) : (
              <Badge size="xs" color={branch === 'otherwise' ? 'orange' : 'gray'} variant="light">
                {stepLabel(data.step, branch)}
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed" lineClamp={3} title={summary} style={{ overflowWrap: 'anywhere' }}>
            {summary}
          </Text>
        </Stack>
      </Group>
      <Handle type="source" position={Position.Bottom} style={handleStyle} isConnectable={false} />
    </Card>
  );
}

function AddStepButton({ data }: NodeProps<AddStepNode>) {
  const { addStep } = useDiagramActions();
  return (
    <UnstyledButton
      onClick={() => addStep?.()}
      aria-label={`Adicionar etapa ${data.step} na jornada`}
      w={NODE_WIDTH}
      className="nodrag"
      style={{
        border: '2px dashed var(--mantine-color-blue-3)',
        borderRadius: 'var(--mantine-radius-md)',
        padding: '10px 12px',
        background: 'var(--mantine-color-blue-0)',
        textAlign: 'center',
      }}
    >
      <Handle type="target" position={Position.Top} style={handleStyle} isConnectable={false} />
      <Group gap={6} justify="center">
        <IconPlus size={16} color="var(--mantine-color-blue-6)" />
        <Text size="sm" fw={600} c="blue.8">
          Adicionar etapa
        </Text>
        <Text size="xs" c="dimmed">
          espera, condição e mensagem
        </Text>
      </Group>
      <Handle type="source" position={Position.Bottom} style={handleStyle} isConnectable={false} />
    </UnstyledButton>
  );
}

/** Node components by block type (STYLE.md rule 8); 'add' is the placeholder for the next block. */
export const nodeTypes: NodeTypes = {
  filter: BlockCard,
  trigger: BlockCard,
  dispatcher: BlockCard,
  finish: BlockCard,
  add: AddBlockNode,
  wait: StepCard,
  condition: StepCard,
  message: StepCard,
  'add-step': AddStepButton,
};
