import type { CompiledMomentum } from '../../engine/matcher.ts';

/*
 * The control group's stage of the funnel (DESIGN.md §13, experiments). Control groups do not exist yet, so nobody
 * is held out and the stage removes 0. When they land, arm assignment is a pure function in packages/shared
 * (person + momentum → arm; person + domain → global control) that the engine calls at delivery time: call that
 * same function here, and the simulation's funnel counts the people it holds out.
 */
export const heldOutAsControl = (_m: CompiledMomentum, _personUuid: string): boolean => false;
