declare module 'altcha/i18n/pt-br';
