// What other features (the v2 form's summary, the diagram, the GCD manager) use: the panel.

export { SimulationPanel, type SimulationPanelProps } from './components/simulation-panel.tsx';
