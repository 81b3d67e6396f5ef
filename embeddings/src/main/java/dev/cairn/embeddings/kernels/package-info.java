/**
 * The arithmetic of the encoder: the linear layers in fp16 ({@code HalfPrecisionLinear}), bfloat16
 * ({@code BFloat16Linear}) and int8 ({@code Int8Linear}, whole or in column slices), attention in
 * Java with the Vector API ({@code VectorAttention}) or as ATen's fused call ({@code
 * FusedAttention}), the Java row loops ({@code RowKernels}, {@code VectorRows}), and the native
 * bindings they stand on: {@code NativeAten} (mangled C++ symbols of libtorch, bound through FFM),
 * {@code NativeHeap} (glibc's {@code mallopt}), {@code TorchRuntime} (the PyTorch engine and the
 * inference thread) and the spinning helper threads ({@code SpinningHelpers}).
 *
 * <p>Each kernel says which CPU flags it needs and comes back empty where the machine or the loaded
 * libtorch lacks them; the caller then keeps its fallback (docs/embeddings.md has the table). This
 * package knows nothing of BERT or of the API ({@code PackageDependencyTest} checks it): its inputs
 * are tensors, memory segments and arrays.
 *
 * <p>Borderline classes, and why they live here:
 *
 * <ul>
 *   <li>{@code TorchRuntime}: every kernel binds on the engine it starts and runs on the thread it
 *       owns; the model only submits work to it.
 *   <li>{@code VectorApi}: whether {@code jdk.incubator.vector} is loaded decides whether the Java
 *       kernels can load at all; retrieval's ordered dot product asks it too, which is why it is
 *       public.
 *   <li>{@code SpinningHelper(s)}: the helper threads the kernels split rows and columns across,
 *       with no knowledge of what they compute.
 * </ul>
 */
package dev.cairn.embeddings.kernels;
