package dev.cairn.api.view;

/** Wall time per stage of a retrieve call, in milliseconds. Signals run concurrently. */
public record Timings(
        double lexicalMs, double denseMs, double graphMs, double fusionMs, double totalMs) {}
