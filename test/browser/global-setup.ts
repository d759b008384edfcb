/**
 * Starts the local Messages API server (Node side) for the browser project; tests in Chromium reach
 * it over HTTP (CORS is open) and script it through its /__script endpoint.
 */
import type { TestProject } from 'vitest/node';
import { startMockAnthropic } from '../llm/mock-anthropic';

declare module 'vitest' {
  export interface ProvidedContext {
    mockAnthropicUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const mock = await startMockAnthropic();
  project.provide('mockAnthropicUrl', mock.url);
  return () => mock.close();
}
