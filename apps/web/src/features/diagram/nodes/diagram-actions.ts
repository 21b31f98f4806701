import { createContext, useContext } from 'react';
import type { DiagramBlockType } from '../graph.ts';

/** What the canvas' nodes can ask of the page; kept out of node data so the graph stays plain data. */
export interface DiagramActions {
  addBlock: (type: DiagramBlockType) => void;
  /** 'Adicionar etapa' (issue #26): a journey step after the last message. */
  addStep?: () => void;
}

export const DiagramActionsContext = createContext<DiagramActions>({ addBlock: () => {}, addStep: () => {} });
export const useDiagramActions = () => useContext(DiagramActionsContext);
