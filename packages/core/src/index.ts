export * from './color-custom-id.ts';
export * from './color-math.ts';
export * from './color-panel.ts';
export * from './config.ts';
export * from './discord-components.ts';
export * from './leveling.ts';
export * from './palette.ts';
export * from './personality-catalog.ts';
