/** The SQL of bank statements, entries and matches (the service owns the transactions). */
export * from './bankrec.rows';
export * from './statement.repo';
export * from './match.repo';
