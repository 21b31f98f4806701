import { ATTRIBUTION_WINDOWS, analyticsMessages, conversionSettingsSchema } from '@impeto/shared';
import { Alert, Button, Code, Group, List, Modal, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconShoppingCart } from '@tabler/icons-react';
import { type FormEvent, useEffect, useState } from 'react';
import { CopyIcon } from '../../../components/ui/copy-code.tsx';
import { errorMessage, isApiError } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useConversionSettings, useSaveConversionSettings } from '../api/conversion-settings.ts';

export const CONVERSION_CALL = "gero('conversion', { value: 349.90, order_id: 'PED-123' })";

/** The domain's conversion settings: the cart-page rule, and how the site reports a sale. */
export function ConversionSettingsModal({
  domainUuid,
  opened,
  onClose,
}: {
  domainUuid: string;
  opened: boolean;
  onClose: () => void;
}) {
  const query = useConversionSettings(domainUuid, opened);
  const save = useSaveConversionSettings(domainUuid);
  const [cartUrl, setCartUrl] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (opened && query.data) setCartUrl(query.data.cart_url);
    if (!opened) setError(null);
  }, [opened, query.data]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = conversionSettingsSchema.safeParse({ settings: { cart_url: cartUrl } });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? analyticsMessages.cartRuleInvalid);
      return;
    }
    setError(null);
    save.mutate(parsed.data.settings, {
      onSuccess: (answer) => {
        notifySuccess(answer.message || analyticsMessages.settingsSaved);
        onClose();
      },
      onError: (failure) => {
        const field = isApiError(failure) ? failure.fields?.['settings.cart_url'] : undefined;
        if (field) setError(field);
        else notifyError(failure);
      },
    });
  };

  return (
    <Modal opened={opened} onClose={onClose} size="lg" title="Conversões">
      <Stack gap="lg">
        {query.isError ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle />} title="Não foi possível carregar">
            {errorMessage(query.error)}
          </Alert>
        ) : query.isPending ? (
          <Skeleton height={84} aria-label="Carregando configurações" />
        ) : (
          <form onSubmit={submit} noValidate>
            <Stack gap="sm">
              <TextInput
                label="Página do carrinho"
                description="Toda visita a uma página cujo endereço contém este trecho conta como acesso ao carrinho. Deixe em branco para não contar."
                placeholder="/carrinho"
                leftSection={<IconShoppingCart size={16} />}
                value={cartUrl}
                onChange={(e) => setCartUrl(e.currentTarget.value)}
                error={error}
                maxLength={250}
              />
              <Group justify="flex-end">
                <Button variant="default" onClick={onClose}>
                  Cancelar
                </Button>
                <Button type="submit" loading={save.isPending}>
                  Salvar
                </Button>
              </Group>
            </Stack>
          </form>
        )}
        <Stack gap="xs">
          <Title order={4} size="h6">
            Como registrar uma venda
          </Title>
          <Text size="sm" c="dimmed">
            Na página de confirmação do pedido, chame o script com o valor em reais e o número do pedido. Um mesmo
            pedido conta uma vez só, mesmo que a página seja recarregada.
          </Text>
          <Group
            gap="xs"
            wrap="nowrap"
            align="flex-start"
            p="sm"
            bg="gray.0"
            style={{ borderRadius: 'var(--mantine-radius-md)', border: '1px solid var(--mantine-color-gray-3)' }}
          >
            <Code fz="sm" bg="transparent" p={0} style={{ flex: 1, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {CONVERSION_CALL}
            </Code>
            <CopyIcon value={CONVERSION_CALL} label="Copiar código" />
          </Group>
          <List size="sm" c="dimmed" spacing={4}>
            <List.Item>
              A venda e o acesso ao carrinho contam para a última mensagem que a pessoa clicou em até{' '}
              {ATTRIBUTION_WINDOWS.clickedDays} dias ou, sem clique, que ela viu em até {ATTRIBUTION_WINDOWS.viewedDays}{' '}
              dia.
            </List.Item>
            <List.Item>Os resultados aparecem na tabela “Desempenho dos momentums”.</List.Item>
          </List>
        </Stack>
      </Stack>
    </Modal>
  );
}
