// Loaded by mocha before every spec (see .mocharc.yml).
import 'reflect-metadata';
import chai from 'chai';

chai.config.truncateThreshold = 0;
