import express from 'express';
import { createCompanionHandler, createNodeListener, type CompanionConfig } from '../../../src/server/index.js';

export function createApp(config: CompanionConfig): express.Express {
  const app = express();
  // Mount it before any body parser: the companion reads (and caps) the body itself.
  app.use('/api/voice-call', createNodeListener(createCompanionHandler(config)));
  return app;
}

// createApp(companionConfigFromEnv(process.env)).listen(3000);
