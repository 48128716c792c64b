export * from './entities.ts';
export * from './errors.ts';
export * from './guild-refs.ts';
export * from './inputs.ts';
export * from './install-state.ts';
export * from './jobs.ts';
export * from './requests.ts';
export * from './routes.ts';
