export * from './api';
export * from './auth';
export * from './permissions';
export * from './notice';
export * from './money';
export * from './brands';
