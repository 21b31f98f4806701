import {
  applyNodeChanges,
  Background,
  BackgroundVariant,
  Controls,
  MiniMap,
  type NodeChange,
  type NodeMouseHandler,
  Panel,
  ReactFlow,
  useReactFlow,
} from '@xyflow/react';
import { type ReactNode, useEffect, useState } from 'react';
import { ADD_NODE_ID, ADD_STEP_NODE_ID, type DiagramNode, type Graph } from '../graph.ts';
import { nodeTypes } from '../nodes/block-node.tsx';

// SVG fill attributes take no CSS variables: Mantine's grape/orange/blue/teal 4 as values.
const MINIMAP_COLORS: Record<string, string> = {
  filter: '#da77f2',
  trigger: '#ffa94d',
  dispatcher: '#4dabf7',
  finish: '#38d9a9',
  add: '#dee2e6',
  wait: '#ced4da',
  condition: '#ffd43b',
  message: '#74c0fc',
  'add-step': '#d0ebff',
};

/**
 * A journey's long chain is not shrunk past legibility to fit: below this zoom the board is panned instead (the
 * four blocks of a momentum without steps always fit above it).
 */
const FIT_MIN_ZOOM = 0.6;

/** Keeps the chain in view when blocks come and go or the board is resized. */
function FitOnChange({ signature }: { signature: string }) {
  const flow = useReactFlow();
  useEffect(() => {
    if (!signature) return;
    // After React Flow has measured the board's new size (its ResizeObserver runs after the layout changes).
    const id = setTimeout(() => {
      void flow.fitView({ padding: 0.25, maxZoom: 1, minZoom: FIT_MIN_ZOOM, duration: 250 });
    }, 120);
    return () => clearTimeout(id);
  }, [flow, signature]);
  return null;
}

export interface DiagramCanvasProps {
  graph: Graph;
  /** A block's type or a journey step node's id ('step-2-wait'); null for the pane. */
  onSelect: (id: string | null) => void;
  /** Changes whenever the board should refit (node count, expansion). */
  fitSignature: string;
  topLeft?: ReactNode;
  /** A phone-sized board: no minimap, which would cover the chain. */
  compact?: boolean;
}

/** The React Flow board: a read-out of the graph derived from the blocks, never edited directly. */
export function DiagramCanvas({ graph, onSelect, fitSignature, topLeft, compact = false }: DiagramCanvasProps) {
  // React Flow keeps the measured sizes on the node objects; derived nodes inherit them so the minimap and
  // fitView keep working when the graph is recomputed from the blocks.
  const [nodes, setNodes] = useState<DiagramNode[]>(graph.nodes);
  useEffect(() => {
    setNodes((previous) => {
      const measured = new Map(previous.map((n) => [n.id, n.measured]));
      return graph.nodes.map((n) => {
        const size = measured.get(n.id);
        return size ? ({ ...n, measured: size } as DiagramNode) : n;
      });
    });
  }, [graph.nodes]);
  const onNodesChange = (changes: NodeChange<DiagramNode>[]) =>
    setNodes((current) => applyNodeChanges(changes, current));
  const onNodeClick: NodeMouseHandler<DiagramNode> = (_, node) => {
    if (node.id !== ADD_NODE_ID && node.id !== ADD_STEP_NODE_ID) onSelect(node.id);
  };
  return (
    <ReactFlow<DiagramNode>
      nodes={nodes}
      onNodesChange={onNodesChange}
      edges={graph.edges}
      nodeTypes={nodeTypes}
      onNodeClick={onNodeClick}
      onPaneClick={() => onSelect(null)}
      nodesDraggable={false}
      nodesConnectable={false}
      elementsSelectable={false}
      fitView
      fitViewOptions={{ padding: 0.25, maxZoom: 1, minZoom: FIT_MIN_ZOOM }}
      minZoom={0.3}
      maxZoom={1.5}
      proOptions={{ hideAttribution: true }}
      aria-label="Diagrama dos blocos"
    >
      <Background variant={BackgroundVariant.Dots} gap={18} size={1.4} color="var(--mantine-color-gray-4)" />
      <Controls showInteractive={false} position="bottom-left" />
      {compact ? null : (
        <MiniMap
          position="bottom-right"
          style={{ width: 132, height: 96 }}
          pannable
          zoomable
          nodeColor={(n) => MINIMAP_COLORS[n.type ?? ''] ?? '#dee2e6'}
          nodeStrokeWidth={2}
          maskColor="rgba(240, 242, 245, 0.6)"
          ariaLabel="Miniatura do diagrama"
        />
      )}
      {topLeft ? <Panel position="top-left">{topLeft}</Panel> : null}
      <FitOnChange signature={fitSignature} />
    </ReactFlow>
  );
}
