/**
 * The judge as a namespaced service: {@link dev.cairn.judge.service.JudgeService} resolves a
 * request's evidence (explicit, or the selected hits of a stored retrieval trace), the namespace's
 * policies and {@code contradicts} relations, judges, and persists the answer with its judgement.
 * Thread-safe.
 */
package dev.cairn.judge.service;
