import { Grid, Input, Paper, SegmentedControl, SimpleGrid, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { IconBrandCss3, IconBrandHtml5, IconBrandJavascript, IconHash, IconTextCaption } from '@tabler/icons-react';
import { useState } from 'react';
import type { FieldErrors } from '../../blocks/index.ts';
import { BEHAVIOR_LABELS, DCM_LIMITS, type DcmBehavior, type DcmTagsState } from '../dcm-state.ts';
import { CodeEditor } from './code-editor.tsx';
import { SandboxPreview } from './sandbox-preview.tsx';

export interface TagsEditorProps {
  value: DcmTagsState;
  onChange: (value: DcmTagsState) => void;
  errors?: FieldErrors;
  disabled?: boolean;
  /** Custom code goes at the element; a template, the opt-in and a push do not need it. */
  selectorRequired?: boolean;
}

type CodeTab = 'customHtml' | 'customCss' | 'customJs';

/** Tags customizadas: where the content goes, on which pages, for how long and how often, and its code. */
export function TagsEditor({ value, onChange, errors = {}, disabled, selectorRequired = true }: TagsEditorProps) {
  const set = (patch: Partial<DcmTagsState>) => onChange({ ...value, ...patch });
  const [tab, setTab] = useState<CodeTab>(errors.customCss ? 'customCss' : errors.customJs ? 'customJs' : 'customHtml');
  const count = (key: 'timeout' | 'recurrence') => ({
    value: value[key],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => set({ [key]: e.currentTarget.value }),
    inputMode: 'numeric' as const,
    error: errors[key],
    disabled,
  });
  return (
    <Stack gap="lg">
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 6 }}>
          <TextInput
            label="Seletor CSS do elemento"
            description="Onde o código entra na página, como no querySelector. Um template, o opt-in e um push não precisam dele (informado, só aparecem nas páginas que o têm)."
            placeholder="#banner, .produto .preco"
            leftSection={<IconHash size={16} />}
            value={value.htmlElement}
            onChange={(e) => set({ htmlElement: e.currentTarget.value })}
            error={errors.htmlElement}
            disabled={disabled}
            withAsterisk={selectorRequired}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            autoComplete="off"
            spellCheck={false}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Input.Wrapper
            label="Como inserir"
            description={BEHAVIOR_LABELS[value.tagBehavior].description}
            error={errors.tagBehavior}
            id="dcm-behavior"
          >
            <SegmentedControl
              mt={6}
              aria-label="Como inserir"
              fullWidth
              value={value.tagBehavior}
              onChange={(v) => set({ tagBehavior: v as DcmBehavior })}
              data={(Object.keys(BEHAVIOR_LABELS) as DcmBehavior[]).map((b) => ({
                value: b,
                label: BEHAVIOR_LABELS[b].label,
              }))}
              disabled={disabled}
            />
          </Input.Wrapper>
        </Grid.Col>
      </Grid>

      <Paper withBorder radius="md" p="md" bg="var(--mantine-color-gray-0)">
        <Text size="xs" fw={700} c="dimmed" tt="uppercase" mb={4}>
          Condições da página (opcional)
        </Text>
        <Text size="xs" c="dimmed" mb="sm">
          O conteúdo só entra quando a página tem este elemento e contém este texto (dentro do elemento, se informado).
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label="A página contém o elemento"
            placeholder=".carrinho, #checkout"
            leftSection={<IconHash size={16} />}
            value={value.containHtmlElement}
            onChange={(e) => set({ containHtmlElement: e.currentTarget.value })}
            error={errors.containHtmlElement}
            disabled={disabled}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            autoComplete="off"
            spellCheck={false}
          />
          <TextInput
            label="E contém o texto"
            placeholder="Finalizar compra"
            leftSection={<IconTextCaption size={16} />}
            value={value.containText}
            onChange={(e) => set({ containText: e.currentTarget.value })}
            error={errors.containText}
            disabled={disabled}
            maxLength={500}
          />
        </SimpleGrid>
      </Paper>

      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Tabs value={tab} onChange={(t) => setTab((t as CodeTab) ?? 'customHtml')} keepMounted={false}>
            <Tabs.List mb="sm">
              <Tabs.Tab
                value="customHtml"
                leftSection={<IconBrandHtml5 size={16} />}
                color={errors.customHtml ? 'red' : undefined}
              >
                HTML
              </Tabs.Tab>
              <Tabs.Tab
                value="customCss"
                leftSection={<IconBrandCss3 size={16} />}
                color={errors.customCss ? 'red' : undefined}
              >
                CSS
              </Tabs.Tab>
              <Tabs.Tab
                value="customJs"
                leftSection={<IconBrandJavascript size={16} />}
                color={errors.customJs ? 'red' : undefined}
              >
                JavaScript
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="customHtml">
              <CodeEditor
                language="html"
                label="HTML"
                value={value.customHtml}
                onChange={(customHtml) => set({ customHtml })}
                limit={DCM_LIMITS.customHtml}
                error={errors.customHtml}
                readOnly={disabled}
              />
            </Tabs.Panel>
            <Tabs.Panel value="customCss">
              <CodeEditor
                language="css"
                label="CSS"
                value={value.customCss}
                onChange={(customCss) => set({ customCss })}
                limit={DCM_LIMITS.customCss}
                error={errors.customCss}
                readOnly={disabled}
              />
            </Tabs.Panel>
            <Tabs.Panel value="customJs">
              <CodeEditor
                language="javascript"
                label="JavaScript"
                description="Roda uma vez a cada inserção, só no seu site e pela tag; nunca aqui no painel."
                value={value.customJs}
                onChange={(customJs) => set({ customJs })}
                limit={DCM_LIMITS.customJs}
                error={errors.customJs}
                readOnly={disabled}
              />
            </Tabs.Panel>
          </Tabs>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <SandboxPreview
            html={value.customHtml}
            css={value.customCss}
            behavior={value.tagBehavior}
            selector={value.htmlElement.trim()}
            height={282}
          />
        </Grid.Col>
      </Grid>

      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput
          label="Tempo de exibição (segundos)"
          description="O conteúdo sai da página depois deste tempo. Vazio: fica até o visitante sair."
          placeholder="Sem limite"
          {...count('timeout')}
        />
        <TextInput
          label="Exibições por visitante"
          description="Quantas vezes no máximo cada visitante vê o conteúdo. Vazio: sem limite."
          placeholder="Sem limite"
          {...count('recurrence')}
        />
      </SimpleGrid>
    </Stack>
  );
}
