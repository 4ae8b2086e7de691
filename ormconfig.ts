/**
 * The DataSource for the TypeORM CLI, on the database DATABASE_URL names, e.g.
 *   npm run build && npx typeorm migration:show -d dist/ormconfig.js
 */
import 'reflect-metadata';
import { loadConfig } from './src/config';
import { createDataSource } from './src/persistence/data-source';

export default createDataSource(loadConfig().database);
