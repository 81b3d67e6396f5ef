-- A chunk's embedding_model names the model and its vector space only (issue 43). Int8 and
-- bfloat16 document passes stored theirs as <model>-int8 and <model>-bf16, so servers on CPUs
-- with other arithmetic sharing this store took them for another model's. Their vectors are
-- within the quality gate of float32 ones and stay as they are; only the name changes.

UPDATE chunks SET embedding_model = 'bge-small-en-v1.5'
    WHERE embedding_model IN ('bge-small-en-v1.5-int8', 'bge-small-en-v1.5-bf16');
UPDATE chunks SET embedding_model = 'all-MiniLM-L6-v2'
    WHERE embedding_model IN ('all-MiniLM-L6-v2-int8', 'all-MiniLM-L6-v2-bf16');
