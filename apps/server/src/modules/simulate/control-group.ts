import { type ArmMomentum, decideArm } from '../../engine/arm.ts';

/*
 * The control group's stage of the funnel (DESIGN.md §13, experiments): the engine's own arm decision (engine/arm.ts
 * over the shared assignArm and inGlobalControl), so the simulation holds out the people the momentum's control group
 * and the domain's global group would. A draft not saved yet has no uuid of its own: its people are drawn under a
 * random one, in the same shares.
 */
export const heldOutAsControl = (m: ArmMomentum, personUuid: string): string | null => decideArm(m, personUuid).heldOut;
