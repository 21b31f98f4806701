import dayjs from 'dayjs';

export const formatDate = (value: string | Date | number) => dayjs(value).format('DD/MM/YYYY');
export const formatTime = (value: string | Date | number) => dayjs(value).format('HH:mm');
export const formatDateTime = (value: string | Date | number) => dayjs(value).format('DD/MM/YYYY HH:mm');

const integer = new Intl.NumberFormat('pt-BR');
export const formatCount = (value: number) => integer.format(value);

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
export const formatMoney = (value: number) => brl.format(value);
