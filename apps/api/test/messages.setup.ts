// Every test process has the modules' message catalogues (modules/messages.ts adds them to
// lib/messages.ts when loaded), as the server has through modules/index.ts: a test of one service
// that never loads the module list still gets its messages.
import '../src/modules/messages';
