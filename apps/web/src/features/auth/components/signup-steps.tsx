import { Stepper } from '@mantine/core';

export function SignupSteps({ active }: { active: 0 | 1 | 2 }) {
  return (
    <Stepper active={active} size="sm" allowNextStepsSelect={false} mb="lg">
      <Stepper.Step label="Empresa" />
      <Stepper.Step label="Usuário" />
      <Stepper.Step label="Confirmação" />
    </Stepper>
  );
}
