import type { ChannelType } from '@impeto/shared';
import { IconAppWindow, IconBellRinging, IconBrandAws, IconMail, IconMessage2 } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface ChannelField {
  name: string;
  label: string;
  placeholder?: string;
  /** A credential: never shown (view mode shows SECRET_MASK), left empty on edit to keep the stored one. */
  secret?: boolean;
  password?: boolean;
}

export interface ChannelDefinition {
  type: ChannelType;
  title: string;
  description: string;
  icon: ReactNode;
  color: string;
  fields: ChannelField[];
}

/** The channel cards (doc 1 §2); OneSignal and SUPERARE_NOTIFICATION have no card (READINGS A-20). */
export const CHANNEL_CARDS: ChannelDefinition[] = [
  {
    type: 'CELL_NOTIFICATION',
    title: 'Notificação push',
    description: 'Envie notificações para quem aceitou recebê-las no navegador, mesmo com o site fechado.',
    icon: <IconBellRinging size={22} />,
    color: 'brand',
    fields: [],
  },
  {
    type: 'ZENVIA',
    title: 'SMS Zenvia',
    description: 'Dispare SMS pela sua conta Zenvia para os contatos com celular cadastrado.',
    icon: <IconMessage2 size={22} />,
    color: 'teal',
    fields: [
      { name: 'login', label: 'Usuário', placeholder: 'Usuário da conta Zenvia', secret: true },
      { name: 'password', label: 'Senha', placeholder: 'Senha da conta Zenvia', secret: true, password: true },
      { name: 'sender', label: 'Remetente', placeholder: 'Nome exibido no SMS' },
    ],
  },
  {
    type: 'AWS_SES',
    title: 'E-mail Amazon SES',
    description: 'Envie e-mails pela sua conta Amazon Simple Email Service, com o seu remetente verificado.',
    icon: <IconBrandAws size={22} />,
    color: 'orange',
    fields: [
      { name: 'accessKeyId', label: 'Access Key ID', placeholder: 'AKIA…', secret: true },
      {
        name: 'secretAccessKey',
        label: 'Secret Access Key',
        placeholder: 'Chave secreta do usuário IAM',
        secret: true,
        password: true,
      },
      { name: 'region', label: 'Região', placeholder: 'us-east-1' },
      { name: 'source', label: 'Remetente (Source)', placeholder: 'contato@minhaloja.com.br' },
    ],
  },
  {
    type: 'AKNA',
    title: 'E-mail Akna',
    description: 'Envie e-mails pela plataforma Akna usando as credenciais da sua conta.',
    icon: <IconMail size={22} />,
    color: 'blue',
    fields: [
      { name: 'username', label: 'Usuário', placeholder: 'Usuário da conta Akna', secret: true },
      { name: 'password', label: 'Senha', placeholder: 'Senha da conta Akna', secret: true, password: true },
      { name: 'client', label: 'Código do cliente', placeholder: 'Código de cliente Akna' },
    ],
  },
  {
    type: 'SUPERARE_WEBVIEW',
    title: 'Mensagem no site',
    description: 'Exiba mensagens e banners dentro do seu site para quem está navegando agora.',
    icon: <IconAppWindow size={22} />,
    color: 'grape',
    fields: [],
  },
];

export const channelDefinition = (type: ChannelType) => CHANNEL_CARDS.find((c) => c.type === type);

/** Opt-in models of the push channel's code mode (DESIGN.md §5, §11). */
export const OPTIN_MODELS = [
  {
    model: 'default',
    title: 'Modelo padrão',
    description: 'Mostra direto o pedido de permissão do navegador.',
  },
  {
    model: 'topbox',
    title: 'Modelo topbox',
    description:
      'Mostra antes uma caixa no topo da página convidando o visitante; o navegador só pergunta se ele aceitar.',
  },
] as const;

export const optinSnippet = (model: string) => `<script>\n  gero('optin', '${model}');\n</script>`;
