/** The sign-in realms moved to lib/realm.ts (issue 45: the auth plugin uses them, and infrastructure never imports a module). */
export * from '../../lib/realm';
