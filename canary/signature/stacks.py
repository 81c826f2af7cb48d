"""The rules and recognisers of the libraries around a training step, each in its own module (PyTorch's MPS backend,
the trainers and simulators, Horovod and MPI, serving engines, sharded training, big models' loading, generation and
the vision and graph libraries, gradient boosting, audio, data files and
model resources, TensorFlow's distribution, PyTorch's function transforms, the
companions' checks), gathered in the order
:mod:`~canary.signature.folds` and :mod:`~canary.signature.bare` apply them. Pure."""

from __future__ import annotations

from canary.signature import (
    apex,
    audio,
    aws,
    boosting,
    brokers,
    checkpointing,
    companion_words,
    companions,
    conda_envs,
    cpu_features,
    cuda_libraries,
    databases,
    docs_builds,
    engines,
    env_runners,
    generation,
    geospatial,
    github_api,
    google_services,
    helper_programs,
    home_automation,
    horovod,
    host_compilers,
    image_tools,
    installs,
    jvm_builds,
    keras3,
    kube_clients,
    loading,
    media_clients,
    mounts,
    mps,
    native_gpu,
    node_tools,
    notebooks,
    numerics,
    pickles,
    plotting,
    precisions,
    process_groups,
    project_tools,
    provisioners,
    resource_tracker,
    resources,
    schedulers,
    serverless,
    services,
    serving,
    sharded,
    spark,
    tf_distribute,
    torch_hub,
    torchscript,
    trainers,
    transforms,
    web_pages,
    worker_pools,
)
from canary.signature.recogniser import BareError
from canary.signature.rewordings import Rule

STACK_RULES: tuple[Rule, ...] = (
    Rule(
        "mps",
        "PyTorch's MPS backend names an operator it lacks (1.12: 'is not current implemented') with advice a post may "
        "cut, one it runs on the CPU with a sentence a title may drop, and the macOS it needs by release (12.3+, later "
        "13.0+): which operator, and that the macOS is too old, are the failure",
        mps.mps_words,
    ),
    Rule(
        "trainers",
        "Lightning names the program's model in a hook it removed, words a strategy refused in a notebook and GPUs "
        "by release; gym and gymnasium word a namespace not found differently; mujoco_py names library paths, "
        "stable-baselines3 its pin of shimmy: which hook, strategy, namespace or check is the failure",
        trainers.trainer_words,
    ),
    Rule(
        "horovod",
        "Horovod explains its shutdown in each release's words after saying it shut down, and names the library of an "
        "extension not built in later releases, and which worker exited with which code: that it shut down, which "
        "extension, and that a worker exited are the failure",
        horovod.horovod_words,
    ),
    Rule(
        "serving",
        "vLLM words its KV cache short of one sequence by engine and names lengths, sizes, devices, the architectures "
        "it supports and the line a post runs on; SGLang's graph capture words its CUDA error by the layer that met "
        "it: which check, and which CUDA error, are the failure",
        serving.serving_words,
    ),
    Rule(
        "sharded",
        "FSDP words a unit's mixed parameters by release and names the dtypes, the rank and the devices; c10's lazy "
        "allocation advises after it: which property is mixed, and that the data was freed, are the failure",
        sharded.sharded_words,
    ),
    Rule(
        "companion-checks",
        "faiss names its check's C++ source and words its allocator's failure by release; scikit-learn names both "
        "releases of a pickle, warning with UserWarning before 1.3; pandas lists each Parquet engine's error: which "
        "check fails, and that a pickle or pyarrow is another release's, are the failure",
        companions.library_checks,
    ),
    Rule(
        "big-models",
        "transformers advises after a big model's refusal by release and names a checkpoint's path and weights; torch "
        "advises after a meta tensor; diffusers names a model's class and path, a pipeline's parts in no order; "
        "llama.cpp's converter a tokenizer's path: which refusal and class are the failure",
        loading.loading_words,
    ),
    Rule(
        "generation",
        "generate() names a prompt's length, a flag's value and an eos id; torchvision words a warning and a missing "
        "kernel by release (RuntimeError, later NotImplementedError); DGL names a CHECK's time and source and 'gpu' "
        "for 'cuda': which check is the failure",
        generation.generation_words,
    ),
    Rule(
        "boosting",
        "XGBoost's errors carry dmlc's time, source and stack trace, one relayed inside another, advice and the paths "
        "it looked in (misspelt in 2016); LightGBM's were bytes up to 2.x with advice to rebuild; CatBoost names its "
        "source: which check is the failure",
        boosting.boosting_words,
    ),
    Rule(
        "audio",
        "torchaudio's dispatcher names the file and format it found no backend for, soundfile the file it could not "
        "open: that no backend reads it, or which format is refused, is the failure",
        audio.audio_words,
    ),
    Rule(
        "data-resources",
        "HDF5 words a file it cannot open, truncated or locked, by release, size and errno; LMDB's code is relayed by "
        "other libraries; NLTK boxes a resource, spaCy advises by release, sentencepiece and netCDF name a path, "
        "Django SQLite's release: the check, the resource or the code is the failure",
        resources.resource_words,
    ),
    Rule(
        "tf-distribute",
        "TensorFlow names an op without a kernel with its node, attributes and the machine's devices, TPUEstimator the "
        "devices it found instead of TPU cores: which op, and that no TPU core was found, are the failure",
        tf_distribute.distribute_words,
    ),
    Rule(
        "torch-func",
        "functorch 0.1 refused control flow or .item() under vmap by the fallback it could not make, later releases in "
        "words of their own with advice; torch.func names its transforms by release: which refusal is the failure",
        transforms.transform_words,
    ),
    Rule(
        "precisions",
        "MSVC spells PyTorch's C++ dtypes with their keyword ('struct c10::Half'); accelerate names the device it "
        "found without a GPU since 2024; Transformer Engine advises after refusing every attention backend: the dtypes "
        "and the check are the failure",
        precisions.precision_words,
    ),
    Rule(
        "botocore",
        "botocore names how many times it retried before a refusal, and the operation whose credentials were refused; "
        "SageMaker words a quota by year and a failed job by its name: the code, the operation (but for credentials), "
        "the limit's name and the reason's class are the failure",
        aws.botocore_words,
    ),
    Rule(
        "keras",
        "Keras 3 names the path it refuses and advises, the values of keywords it refuses; Keras 2 the whole config of "
        "a class it could not deserialize: the refusal, the layer and keywords, and the class are the failure",
        keras3.keras_words,
    ),
    Rule(
        "checkpointing",
        "torch's checkpoint warning and DDP's parameter marked ready twice advise after their first sentence, by "
        "release; jax.checkpoint names the program's static_argnums: the first sentence and the check are the failure",
        checkpointing.checkpoint_words,
    ),
    Rule(
        "native-gpu",
        "boost::filesystem names the path of the file MIOpen's database could not reach: the call and why are the "
        "failure, the path is the machine's",
        native_gpu.native_words,
    ),
    Rule(
        "torch-cudnn",
        "PyTorch checks the cuDNN it loads against its build's by release ('compiled against 7102 but linked against "
        "7600', '(8, 5, 0) but found runtime version (8, 3, 3)', then advice): which way they differ is the failure",
        cuda_libraries.cudnn_version,
    ),
    Rule(
        "python-guard",
        "a package's setup refuses the Python it runs on naming it and the range its release supports: the range, and "
        "whether the Python is older or newer than it, are the failure; which Python is the machine's",
        installs.python_guard,
    ),
    Rule(
        "spark",
        "PySpark names the worker's and driver's Pythons and its gateway's exit (3.4 on after an error class), a "
        "library's minimum and the one found; Py4J the JVM's exception after the call: that they differ, which "
        "library, the exit and the JVM's words are it",
        spark.spark_words,
    ),
    Rule(
        "databases",
        "SQLAlchemy names the driver's class and links its page (2.0 quotes what it would not execute), pyodbc adds "
        "its SQLSTATE, ODBC names a library by path, Oracle's DPI-1047 has two wordings, pyproj names the CRS, "
        "Flask 2.2 advises, Django's floors the release: the words, library and why are the failure",
        databases.database_words,
    ),
    Rule(
        "brokers",
        "Redis words its refusal to write without a snapshot (MISCONF) three ways by release, raised or printed; "
        "Celery's consumer names its broker by URL: that Redis cannot persist, and the broker's scheme and why the "
        "consumer cannot reach it, are the failure",
        brokers.broker_words,
    ),
    Rule(
        "helper-programs",
        "pytesseract, pdfkit, camelot, graphviz and GitPython name a program the machine lacks by the path tried, "
        "with advice by release; Selenium, ChromeDriver, Chromium and Playwright a browser's refusal, exit or missing "
        "executable by release, path, line: which program and refusal are the failure",
        helper_programs.program_words,
    ),
    Rule(
        "host-compilers",
        "PyTorch's extension builder checks the host compiler against the CUDA found, naming both versions and a "
        "triple's prefix by distribution: which compiler is above CUDA's bound is the failure, the versions the "
        "machine's",
        host_compilers.compiler_words,
    ),
    Rule(
        "nfs-silly-rename",
        "NFS renames a file deleted while open to '.nfs' and an id, and a directory's removal meets it busy: that a "
        "file was held open on NFS is the failure, the id the server's",
        mounts.nfs_words,
    ),
    Rule(
        "lambda",
        "AWS Lambda's runtime wraps a handler's failed import in its own words with the handler's module, the path the "
        "package was unpacked to and, in CloudWatch, the traceback's first line: the import's error, of the class its "
        "words say, is the failure",
        serverless.lambda_words,
    ),
    Rule(
        "conda-environments",
        "conda names the environment it could not find (4.3 without 'conda', later with it), the prefix that already "
        "exists and a channel's URL, time and CDN id after its HTTP error: the refusal, the status and whether the "
        "prefix is the base are the failure",
        conda_envs.conda_words,
    ),
    Rule(
        "sphinx-builds",
        "nbsphinx names the notebook it was converting when pandoc is missing, above Pandoc's words; Sphinx follows "
        "the release an extension needs with why, and wraps a handler's exception in the build's language: that "
        "pandoc is missing, which release, what the handler raised are it",
        docs_builds.sphinx_words,
    ),
    Rule(
        "test-environments",
        "tox 4 names the pip options it refused in an environment's deps and the command outside its allowlist; "
        "virtualenv the interpreter it could not query and relays its error's traceback: the refusal, and what the "
        "query met, are the failure",
        env_runners.env_runner_words,
    ),
    Rule(
        "azure-functions",
        "Azure Functions' host follows a function's exception with 'Stack:' and the worker's traceback, which a "
        "portal's copy runs onto the message's line: the exception's words are the failure",
        serverless.functions_words,
    ),
    Rule(
        "pickles",
        "pickle and dill note each object they were serializing below the error; PyTorch's legacy loader names the zip "
        "checkpoint it cannot read, 2.6's weights-only load advises by release before what it refused: what failed "
        "or was refused is the failure, the objects and path the program's",
        pickles.pickle_words,
    ),
    Rule(
        "plotting",
        "matplotlib's Tk backend names the directories it searched for Tcl's scripts, its font manager the family "
        "asked for and the fallback by release, its text the glyph: which script, and that a font or a glyph is "
        "missing, are the failure",
        plotting.plot_words,
    ),
    Rule(
        "worker-pools",
        "a broken process pool follows its first sentence with advice by release, and Dask's KilledWorker names the "
        "task, its key and the workers (a tuple before 2022, a sentence since): that the pool broke, and how, is it",
        worker_pools.pool_words,
    ),
    Rule(
        "trackers",
        "W&B names a key's length; MLflow the parameter and both values it would not change, a too long value and its "
        "length, a deleted experiment's name, the database's revisions; a server raises with its code: the refusal is "
        "the failure",
        services.tracker_words,
    ),
    Rule(
        "google-services",
        "the Google Ads Python client names the version a job pinned and the ones its release ships when it does not "
        "ship that one, Google's API client the API it found no document for: that none exists is the failure",
        google_services.google_words,
    ),
    Rule(
        "geopy-agent",
        "geopy 2 refuses Nominatim's default user agent, which names geopy's release ('geopy/2.0.0'): the refusal, "
        "not the release, is the failure",
        geospatial.geopy_words,
    ),
    Rule(
        "image-tools",
        "ImageMagick names the file its policy refused, its source line and, since 6.9.10, the coder; Tesseract where "
        "it looked for a language's data, Wand for MagickWand, Pillow's X grab its request: which coder, step, "
        "language or error is the failure",
        image_tools.image_words,
    ),
    Rule(
        "media-clients",
        "yt-dlp follows what it could not extract with its tracker's advice, as youtube-dl's own ERROR line does; "
        "pytube names the video it refuses: what could not be extracted and by which program, and the refusal, are "
        "the failure",
        media_clients.media_words,
    ),
    Rule(
        "numerics",
        "PyTorch 1.10 numbered its backward functions ('SqrtBackward' became 'SqrtBackward0'), in anomaly mode's "
        "warning and in the RuntimeError after it: one function either way",
        numerics.numeric_words,
    ),
)

# (read among the bare errors after the companions' and before the exception's repr)
STACK_ERRORS: list[BareError] = [
    *conda_envs.CONDA_ERRORS,
    *node_tools.NODE_ERRORS,
    *env_runners.ENV_RUNNER_ERRORS,
    *kube_clients.KUBE_CLIENT_ERRORS,
    *jvm_builds.JVM_BUILD_ERRORS,
    *provisioners.PROVISIONER_ERRORS,
    *docs_builds.DOCS_BUILD_ERRORS,
    *notebooks.NOTEBOOK_ERRORS,
    *project_tools.PROJECT_TOOL_ERRORS,
    *mps.MPS_ERRORS,
    *trainers.SIMULATOR_ERRORS,
    *engines.ENGINE_ERRORS,
    *horovod.MPI_ERRORS,
    *serving.SERVING_ERRORS,
    *sharded.SHARDED_ERRORS,
    *loading.LOADING_ERRORS,
    *generation.GENERATION_ERRORS,
    *boosting.BOOSTING_ERRORS,
    *audio.AUDIO_ERRORS,
    *resources.RESOURCE_ERRORS,
    *tf_distribute.DISTRIBUTE_ERRORS,
    *transforms.TRANSFORM_ERRORS,
    *precisions.PRECISION_ERRORS,
    *aws.AWS_ERRORS,
    *native_gpu.NATIVE_GPU_ERRORS,
    *cuda_libraries.CUDA_LIBRARY_ERRORS,
    *numerics.NUMERIC_ERRORS,
    *schedulers.SCHEDULER_ERRORS,
    *torch_hub.TORCH_HUB_ERRORS,
    *torchscript.TORCHSCRIPT_ERRORS,
    *apex.APEX_ERRORS,
    *github_api.GITHUB_API_ERRORS,
    *google_services.GOOGLE_SERVICE_ERRORS,
    *media_clients.MEDIA_CLIENT_ERRORS,
    *image_tools.IMAGE_TOOL_ERRORS,
    *home_automation.HOME_AUTOMATION_ERRORS,
    *web_pages.WEB_PAGE_ERRORS,
    *cpu_features.CPU_FEATURE_ERRORS,
    *companion_words.COMPANION_WORDS,
    *process_groups.PROCESS_GROUP_ERRORS,
    *resource_tracker.RESOURCE_TRACKER_ERRORS,
    *databases.DATABASE_ERRORS,
    *brokers.BROKER_ERRORS,
    *helper_programs.HELPER_PROGRAM_ERRORS,
    *spark.SPARK_CHECKS,
    *plotting.PLOTTING_ERRORS,
    *mounts.MOUNT_ERRORS,
    *host_compilers.HOST_COMPILER_ERRORS,
    *serverless.LAMBDA_ERRORS,
]
