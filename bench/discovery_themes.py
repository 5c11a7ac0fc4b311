"""The research themes of the discovery corpus (bench/discovery_corpus.py), written for it.

Each theme has a few *focuses* (what a paper is about), *techniques* (how it
goes about it) and *settings* (where it applies). Every one of them is a
`Concept`: the wordings papers use, and other wordings — synonyms, other word
forms (`scheduling` / `scheduler`), abbreviations spelled out or not — that
questions use, so a question never repeats its answer's phrasing. Wordings are
separated by `|`. Some techniques and settings are shared by several themes,
and the generic words of research writing are everywhere, so that themes are
not separable by a word or two.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Concept:
    paper: tuple[str, ...]
    ask: tuple[str, ...]


def c(paper: str, ask: str) -> Concept:
    return Concept(tuple(p.strip() for p in paper.split("|")), tuple(a.strip() for a in ask.split("|")))


@dataclass(frozen=True, slots=True)
class Theme:
    key: str
    label: str
    categories: tuple[str, ...]  # the first is the usual primary
    context: tuple[str, ...]  # opening sentences
    goals: tuple[str, ...]  # "... which uses T to GOAL"
    focuses: tuple[Concept, ...]
    techniques: tuple[Concept, ...]
    settings: tuple[Concept, ...]
    datasets: tuple[str, ...]
    metrics: tuple[str, ...]


# Techniques several themes use: the same words in different fields.
RL = c("reinforcement learning | a policy trained with reinforcement learning", "RL agents | reward-driven trial-and-error learning")
DISTILL = c("knowledge distillation | distilling a large teacher into a small student", "teacher-student compression | transferring what a big model knows to a smaller one")
CONTRASTIVE = c("contrastive pretraining | self-supervised contrastive learning", "learning representations by pulling positive pairs together | self-supervision with negative pairs")
GNN_TECH = c("graph neural networks | message passing over a graph", "GNN models | neural nets that propagate information between neighbouring nodes")
TRANSFORMER = c("a transformer encoder | self-attention layers", "attention-based architectures | transformer models")
BAYES = c("Bayesian optimization | a Gaussian-process surrogate", "sample-efficient black-box search | GP-based tuning")
DIFFUSION = c("denoising diffusion models | a score-based generative model", "diffusion generative networks | iterative denoising generators")

# Settings several themes share.
EDGE = c("on edge devices | on resource-constrained edge hardware", "on phones and embedded boards | on small battery-powered devices")
LOW_LABEL = c("with few labelled examples | in the low-label regime", "when annotations are scarce | with little labeled data")
SHIFT = c("under distribution shift | when test data drift from training data", "when the deployment data differ from what was seen in training | under dataset drift")


THEMES: tuple[Theme, ...] = (
    Theme(
        "gpu_sched", "Scheduling deep learning jobs on GPU clusters", ("cs.DC", "cs.LG", "cs.OS"),
        (
            "Deep learning training jobs dominate the workload of shared GPU clusters, and where they are placed decides both utilization and fairness.",
            "Cluster managers for machine learning must juggle jobs whose resource demands change as training proceeds.",
            "Large training runs queue for scarce accelerators, and every idle GPU hour is expensive.",
        ),
        ("decide where and when each job runs", "reassign accelerators as the queue changes", "pack jobs onto nodes without hurting their throughput"),
        (
            c("preemptive job scheduling | preemption-aware job placement", "interruptible training workloads | pausing and resuming running jobs"),
            c("elastic resource allocation | elastic scaling of training jobs", "growing and shrinking the worker count | autoscaled distributed training"),
            c("fairness across tenants | fair sharing of GPU time", "equitable allocation among users | unfair queues for accelerators"),
            c("straggler mitigation | handling stragglers in synchronous training", "slow workers that hold back every synchronous step | lagging nodes"),
            c("topology-aware job placement | locality-aware placement of workers", "putting workers close together on the interconnect | where jobs land relative to the network layout"),
        ),
        (
            RL,
            c("throughput prediction models | a learned throughput predictor", "forecasting how fast a job will train | performance estimators"),
            c("integer linear programming | a mixed-integer program", "ILP formulations | exact combinatorial optimisation solvers"),
            c("checkpoint-based migration | live migration through checkpoints", "moving jobs between machines by saving their state | snapshot and restart of running jobs"),
        ),
        (
            c("on multi-tenant GPU clusters | in shared GPU clusters", "in datacenters used by many teams | on accelerator pools several groups share"),
            c("for large language model training | when pretraining large language models", "for LLM pretraining runs | for training huge transformer networks"),
            c("on heterogeneous accelerators | across mixed GPU generations", "with different kinds of GPUs | with a mix of old and new accelerator types"),
        ),
        ("a 2,000-GPU production trace", "the Philly-style Kessel trace", "a synthetic Poisson job stream", "the Hollins cluster log"),
        ("average job completion time", "makespan", "GPU utilization", "queueing delay"),
    ),
    Theme(
        "llm_serving", "Serving large language models", ("cs.DC", "cs.CL", "cs.LG"),
        (
            "Serving large language models is dominated by the cost of generating one token at a time.",
            "Inference for chat assistants must meet tight latency targets while sharing expensive hardware among many requests.",
            "The memory held by attention keys and values limits how many requests an inference server can hold at once.",
        ),
        ("raise the number of requests served per second", "cut the time to the first token", "fit more concurrent conversations in memory"),
        (
            c("KV cache management | paging the key-value cache", "storing attention keys and values | memory for cached keys/values"),
            c("continuous batching | iteration-level batching of requests", "adding new requests to a running batch | dynamic request grouping"),
            c("speculative decoding | draft-and-verify generation", "guessing several tokens with a small model and checking them | speculation during decoding"),
            c("prefill and decode disaggregation | separating prompt processing from generation", "splitting the prompt phase and the token generation phase onto different machines | disaggregated inference"),
            c("request scheduling for inference | scheduling of generation requests", "a scheduler that orders incoming prompts | deciding which queries the server runs first"),
        ),
        (
            c("8-bit weight quantization | low-precision weights", "compressing the model to int8 | quantized parameters"),
            DISTILL,
            c("cache-aware routing | prefix-aware request routing", "sending prompts that share a prefix to the same replica | routers that know what each server has cached"),
            c("offloading to host memory | offloading tensors to CPU memory", "moving data off the GPU into DRAM | CPU offload"),
        ),
        (
            c("for interactive chat workloads | under bursty chat traffic", "for conversational assistants | when users chat in real time"),
            c("with very long prompts | for long-context requests", "when inputs span hundreds of thousands of tokens | with lengthy input documents"),
            c("on a single commodity GPU | on one consumer graphics card", "with just one affordable accelerator | on a gaming GPU"),
        ),
        ("ShareChat-Log", "a 70B-parameter model on Arvo traces", "the LongDial benchmark", "production traces from a chat service"),
        ("time to first token", "throughput", "tail latency", "memory footprint"),
    ),
    Theme(
        "sparse_attn", "Efficient attention for long sequences", ("cs.LG", "cs.CL"),
        (
            "Self-attention costs time and memory quadratic in sequence length, which limits the context a model can read.",
            "Long-context language models need attention mechanisms that scale beyond the quadratic cost of dense attention.",
            "Most entries of an attention matrix are close to zero, suggesting that dense attention wastes most of its work.",
        ),
        ("approximate full attention at a fraction of its cost", "read much longer inputs on the same hardware", "keep accuracy while skipping most attention scores"),
        (
            c("block-sparse attention patterns | sparse attention masks", "attending only to a few blocks of tokens | skipping most query-key pairs"),
            c("linear attention | kernelized attention with linear cost", "attention whose cost grows linearly with length | feature-map approximations of softmax"),
            c("sliding-window attention | local attention windows", "letting each token look only at its neighbours | attention restricted to nearby positions"),
            c("attention sinks and token eviction | evicting tokens from the context", "dropping old tokens from the window | deciding which past positions to forget"),
            c("length extrapolation | generalizing to longer sequences than seen in training", "extrapolating to longer inputs | running beyond the training context length"),
        ),
        (
            c("learned routing of tokens | content-based token clustering", "grouping similar tokens by learning | routers that cluster queries and keys"),
            c("low-rank projections | a low-rank approximation of the attention matrix", "factorizing attention into thin matrices | rank-reduced attention"),
            c("IO-aware fused kernels | tiling attention to avoid memory traffic", "GPU kernels that minimize reads from high-bandwidth memory | fused attention implementations"),
            c("rotary position interpolation | rescaled rotary embeddings", "stretching RoPE positions | interpolating positional encodings"),
        ),
        (
            c("for document-level question answering | on long-document QA", "for answering questions about whole books | over lengthy reports"),
            c("for genomic sequence modelling | on DNA sequences", "for reading genomes | on nucleotide strings"),
            c("for long video understanding | on hour-long videos", "for lengthy video clips | for movie-length footage"),
        ),
        ("LongBench-style Quire", "the Scroll-32k suite", "PathX-Alt", "a 1M-token needle-in-a-haystack test"),
        ("perplexity", "accuracy", "wall-clock speedup", "peak memory"),
    ),
    Theme(
        "federated", "Federated learning", ("cs.LG", "cs.DC", "cs.CR"),
        (
            "Federated learning trains a shared model while the data stay on clients' devices.",
            "In cross-device federated learning, millions of phones contribute updates without revealing their data.",
            "Hospitals and banks increasingly train joint models without pooling their records.",
        ),
        ("reach a good global model in fewer communication rounds", "keep clients' updates useful despite their differences", "train a joint model without sharing raw records"),
        (
            c("non-IID client data | statistical heterogeneity across clients", "clients whose data follow different distributions | skewed local datasets"),
            c("communication-efficient aggregation | reducing communication rounds", "sending fewer bytes between clients and server | cheaper model averaging"),
            c("client selection | choosing which clients participate", "picking participants each round | selecting devices to train"),
            c("personalized federated models | per-client personalization", "models tailored to each participant | customizing the global model locally"),
            c("Byzantine-robust aggregation | defending against poisoned updates", "malicious clients that send corrupted gradients | poisoning attacks on the server"),
        ),
        (
            c("gradient compression | sparsified and quantized updates", "compressing what clients upload | sending only the largest gradient entries"),
            DISTILL,
            c("secure aggregation | cryptographic aggregation of updates", "the server sums updates it cannot read | masking client contributions"),
            c("meta-learning | a model-agnostic meta-learning objective", "learning to adapt quickly | MAML-style training"),
        ),
        (
            c("across hospitals | for clinical data held by several hospitals", "between medical centres | on patient records that cannot leave each clinic"),
            EDGE,
            c("for next-word prediction on mobile keyboards | for keyboard language models", "for predictive typing on smartphones | for on-device text suggestions"),
        ),
        ("FEMNIST-like Scribe", "a 3,400-client keyboard log", "Shakespeare-Fed", "the CrossSilo-Med split"),
        ("test accuracy", "communication cost", "rounds to convergence", "worst-client accuracy"),
    ),
    Theme(
        "protein", "Protein structure prediction", ("q-bio.BM", "cs.LG", "q-bio.QM"),
        (
            "Predicting a protein's three-dimensional structure from its amino acid sequence underpins modern drug design.",
            "Deep learning has transformed protein structure prediction, yet many folds remain poorly modelled.",
            "A protein's function follows from its shape, which is costly to determine experimentally.",
        ),
        ("predict atomic coordinates from sequence", "model how residues contact one another", "score candidate folds"),
        (
            c("protein structure prediction | predicting folded structures", "working out how a chain of amino acids folds | 3D conformation from sequence"),
            c("protein-protein docking | predicting binding interfaces between proteins", "how two proteins bind to each other | interacting protein complexes"),
            c("multiple sequence alignment features | coevolution signals from alignments", "evolutionary information from homologous sequences | MSA inputs"),
            c("conformational ensembles | predicting alternative conformations", "proteins that switch between several shapes | flexible protein states"),
            c("inverse folding | designing sequences for a target backbone", "choosing amino acids that fold into a given structure | sequence design"),
        ),
        (
            c("equivariant neural networks | SE(3)-equivariant layers", "rotation-equivariant models | networks that respect 3D symmetries"),
            c("protein language models | embeddings from a pretrained protein language model", "large models trained on millions of sequences | sequence-only embeddings"),
            DIFFUSION,
            GNN_TECH,
        ),
        (
            c("for antibodies | on antibody loops", "for immune-system binders | on CDR regions"),
            c("for membrane proteins | on transmembrane proteins", "for proteins embedded in lipid bilayers | for channels and transporters"),
            c("for orphan proteins without homologs | when few related sequences exist", "for sequences with no evolutionary relatives | for proteins lacking close homologues"),
        ),
        ("CASP-style Foldset", "the Tessaract-PDB split", "a curated antibody benchmark", "the DockGround-like Orchid set"),
        ("TM-score", "lDDT", "RMSD", "interface accuracy"),
    ),
    Theme(
        "gnn", "Graph neural networks", ("cs.LG", "stat.ML", "cs.SI"),
        (
            "Graph neural networks learn from relational data by passing messages between neighbouring nodes.",
            "Message-passing networks are the standard tool for learning on graphs, from molecules to social networks.",
            "Learning on graphs requires models that respect the structure of the data rather than treating nodes independently.",
        ),
        ("learn node representations that generalize", "propagate information across distant nodes", "classify graphs and nodes more accurately"),
        (
            c("over-smoothing in deep GNNs | oversmoothing as layers are added", "node features becoming indistinguishable in deep message-passing networks | deeper graph networks losing information"),
            c("expressive power of message passing | expressivity beyond the Weisfeiler-Lehman test", "what graph networks can distinguish | WL-test limits"),
            c("heterophily | graphs where neighbours have different labels", "heterophilous graphs | dissimilar connected nodes"),
            c("scalable training on large graphs | mini-batch training with neighbour sampling", "training on billion-edge graphs | sampling subgraphs to fit memory"),
            c("over-squashing | bottlenecks in long-range message passing", "information squeezed through narrow graph bottlenecks | long-range dependencies on graphs"),
        ),
        (
            c("graph rewiring | rewiring edges by curvature", "adding and removing edges to improve flow | changing graph connectivity"),
            c("positional encodings from Laplacian eigenvectors | spectral positional encodings", "eigenvector features of the graph Laplacian | spectral position features"),
            TRANSFORMER,
            c("residual connections and normalization | skip connections with pair normalization", "skip links between layers | normalization layers for graphs"),
        ),
        (
            c("for node classification | on citation networks", "for labelling nodes | on paper citation graphs"),
            c("for molecular property prediction | on molecular graphs", "for predicting chemical properties | on graphs of atoms and bonds"),
            c("for fraud detection in transaction graphs | on financial transaction networks", "for catching fraudulent payments | on banking transfer graphs"),
        ),
        ("OGB-like Arbor", "the Cora-style Lattice citations", "a 1.2B-edge transaction graph", "the Roman-Empire-like heterophily suite"),
        ("accuracy", "ROC-AUC", "training time per epoch", "memory use"),
    ),
    Theme(
        "asr", "Automatic speech recognition", ("eess.AS", "cs.CL", "cs.SD"),
        (
            "Automatic speech recognition has improved rapidly, but errors remain high for many speakers and conditions.",
            "End-to-end speech recognizers map audio directly to text, removing hand-built pronunciation lexicons.",
            "Voice interfaces depend on transcribing speech accurately and quickly.",
        ),
        ("transcribe speech with fewer errors", "recognize words as they are spoken", "adapt the recognizer with little data"),
        (
            c("streaming speech recognition | low-latency streaming ASR", "transcribing audio as it arrives | real-time recognition of speech"),
            c("accented speech recognition | recognition of accented English", "speakers with regional accents | non-native pronunciation"),
            c("code-switching speech | recognizing code-switched utterances", "speakers mixing two languages in a sentence | bilingual utterances"),
            c("noisy speech recognition | robustness to background noise", "transcribing audio recorded in loud places | noise-robust recognizers"),
            c("low-resource languages | recognition for under-resourced languages", "languages with little transcribed audio | speech in rarely studied languages"),
        ),
        (
            c("connectionist temporal classification | CTC training", "CTC loss | alignment-free sequence training"),
            c("self-supervised speech representations | wav2vec-style pretraining", "learning from unlabeled audio | speech encoders pretrained without transcripts"),
            c("conformer encoders | convolution-augmented transformers", "conformer models | attention combined with convolutions"),
            c("language model fusion | shallow fusion with an external language model", "combining the recognizer with a text LM | rescoring hypotheses with a language model"),
        ),
        (
            c("for far-field meeting recordings | on meeting transcription", "for recordings from distant microphones | for transcribing meetings"),
            EDGE,
            c("for children's speech | on speech from young children", "for kids talking | for child speakers"),
        ),
        ("LibriSpeech-like Quill", "the Tamsin accented corpus", "a 1,000-hour meeting set", "CommonVoice-style Babel-12"),
        ("word error rate", "real-time factor", "latency", "character error rate"),
    ),
    Theme(
        "edge_offload", "Computation offloading in mobile edge computing", ("cs.NI", "cs.DC", "eess.SY"),
        (
            "Mobile devices increasingly run workloads that exceed their battery and compute budgets.",
            "Multi-access edge computing places servers near base stations so devices can hand off heavy computation.",
            "Latency-critical applications such as augmented reality cannot wait for a round trip to a distant cloud.",
        ),
        ("decide which tasks to run remotely", "balance energy and delay for every device", "split computation between device and server"),
        (
            c("task offloading decisions | computation offloading", "deciding what to offload | sending workloads from phones to nearby servers"),
            c("DNN partitioning between device and edge | splitting neural network inference", "cutting a network into a phone part and a server part | split inference"),
            c("joint resource allocation | joint allocation of bandwidth and compute", "sharing radio and CPU resources together | co-allocating spectrum and processors"),
            c("energy-efficient offloading | minimizing device energy consumption", "saving battery when offloading | low-power task handoff"),
            c("service placement and migration | placing services on edge servers", "where to host services near users | moving services as users move"),
        ),
        (
            RL,
            c("Lyapunov optimization | drift-plus-penalty control", "Lyapunov-based online control | queue-stability optimisation"),
            c("game-theoretic mechanisms | a non-cooperative offloading game", "game theory between users | Nash equilibrium strategies"),
            c("convex relaxation | a convex approximation of the mixed-integer problem", "relaxing the integer constraints | convex surrogates"),
        ),
        (
            c("in vehicular networks | for connected vehicles", "for cars on the road | in vehicle-to-infrastructure links"),
            c("with UAV-mounted edge servers | using drones as edge servers", "with unmanned aerial vehicles carrying compute | flying base stations"),
            c("for augmented reality applications | for AR headsets", "for mixed-reality glasses | for augmented-reality apps"),
        ),
        ("a city-scale base-station trace", "the Marlow mobility dataset", "simulated 5G cells", "the Vantage AR workload"),
        ("average task latency", "device energy", "deadline miss rate", "system cost"),
    ),
    Theme(
        "qec", "Quantum error correction", ("quant-ph", "cs.ET"),
        (
            "Fault-tolerant quantum computation requires encoding logical qubits redundantly in many physical qubits.",
            "Quantum hardware is noisy, and error correction must detect and undo errors faster than they accumulate.",
            "Scaling quantum computers depends on codes and decoders that keep logical error rates low.",
        ),
        ("suppress logical errors", "decode syndromes in real time", "lower the qubit overhead of fault tolerance"),
        (
            c("surface code decoding | decoders for the surface code", "decoding surface-code syndromes | planar-code error decoding"),
            c("quantum LDPC codes | low-density parity-check quantum codes", "qLDPC constructions | sparse-check quantum codes"),
            c("magic state distillation | distilling magic states", "preparing non-Clifford resource states | T-state factories"),
            c("leakage errors | leakage out of the computational subspace", "qubits leaking to higher levels | non-computational states"),
            c("correlated noise | spatially correlated errors", "errors that hit neighbouring qubits together | crosstalk-driven noise"),
        ),
        (
            c("minimum-weight perfect matching | matching-based decoding", "MWPM decoders | graph matching of defects"),
            c("neural network decoders | learned decoders", "deep learning for syndrome decoding | decoders trained on simulated errors"),
            c("belief propagation with ordered statistics | BP-OSD decoding", "message-passing decoders with post-processing | iterative belief propagation"),
            c("lattice surgery | logical operations by lattice surgery", "merging and splitting code patches | patch-based logical gates"),
        ),
        (
            c("on superconducting qubits | for transmon processors", "on superconducting hardware | for transmon devices"),
            c("for trapped-ion processors | on trapped ions", "on ion-trap machines | for ions held in traps"),
            c("under circuit-level noise | with realistic circuit noise", "with noise on every gate and measurement | circuit-level error models"),
        ),
        ("Stim-style circuit simulations", "a 72-qubit device", "the Brennan noise model", "distance-15 memory experiments"),
        ("logical error rate", "threshold", "decoding latency", "qubit overhead"),
    ),
    Theme(
        "weather", "Machine learning for weather and climate", ("physics.ao-ph", "cs.LG"),
        (
            "Numerical weather prediction solves the equations of the atmosphere at great computational cost.",
            "Data-driven models trained on reanalysis data now rival physics-based forecasts at a fraction of the cost.",
            "Climate adaptation needs local, high-resolution projections that global models cannot provide.",
        ),
        ("forecast the atmosphere faster than numerical models", "produce calibrated probabilistic forecasts", "add fine-scale detail to coarse fields"),
        (
            c("medium-range weather forecasting | global forecasts up to ten days", "predicting the weather a week ahead | week-long global prediction"),
            c("precipitation nowcasting | short-term rainfall prediction", "predicting rain in the next hour or two | radar-based rain forecasts"),
            c("statistical downscaling | super-resolution of climate projections", "refining coarse climate model output to local scales | high-resolution regional projections"),
            c("extreme event prediction | forecasting heatwaves and storms", "anticipating extreme weather | predicting heat waves"),
            c("ensemble forecasting | probabilistic ensembles", "many-member forecasts with uncertainty | forecast spread"),
        ),
        (
            c("graph neural networks on the sphere | an icosahedral message-passing mesh", "GNNs over a spherical mesh | learned simulators on the globe"),
            c("Fourier neural operators | spectral neural operators", "operator learning in Fourier space | FNO models"),
            DIFFUSION,
            TRANSFORMER,
        ),
        (
            c("from reanalysis data | trained on ERA5-style reanalysis", "learned from historical atmospheric reconstructions | using reanalysis archives"),
            c("for tropical cyclones | on hurricane tracks", "for typhoons | for cyclone paths"),
            c("over complex mountain terrain | in mountainous regions", "in the Alps and other high relief areas | over rugged topography"),
        ),
        ("the WeatherBench-like Nimbus set", "40 years of reanalysis", "a national radar composite", "CMIP-style Ashgrove runs"),
        ("RMSE", "anomaly correlation", "CRPS", "critical success index"),
    ),
    Theme(
        "grasping", "Robotic grasping and manipulation", ("cs.RO", "cs.LG", "cs.CV"),
        (
            "Robots that work in homes and warehouses must pick up objects they have never seen.",
            "Dexterous manipulation remains one of the hardest problems in robotics.",
            "Learning-based manipulation promises robots that generalize beyond hand-engineered routines.",
        ),
        ("pick up unseen objects reliably", "plan contact-rich motions", "transfer skills from simulation to real robots"),
        (
            c("grasp pose detection | predicting grasp poses", "finding where to grip an object | choosing gripper configurations"),
            c("dexterous in-hand manipulation | multi-fingered in-hand rotation", "turning objects within a robotic hand | reorienting things with fingers"),
            c("sim-to-real transfer | transferring policies from simulation", "moving from simulated training to physical robots | bridging the reality gap"),
            c("deformable object manipulation | manipulating cloth and cables", "folding fabric | handling ropes and soft items"),
            c("language-conditioned manipulation | following natural-language instructions", "robots that act on spoken or written commands | instruction-following arms"),
        ),
        (
            c("imitation learning from demonstrations | behaviour cloning", "learning by copying a human teleoperator | demonstration-based training"),
            RL,
            DIFFUSION,
            c("tactile sensing | vision-based touch sensors", "touch feedback | haptic signals from fingertips"),
        ),
        (
            c("in cluttered bins | for bin picking", "from messy piles of items | in warehouse picking"),
            c("for household tasks | in kitchens", "around the home | for domestic chores"),
            c("with low-cost robot arms | on inexpensive hardware", "with cheap manipulators | on affordable arms"),
        ),
        ("a 200-object household set", "the Glendower bin-picking benchmark", "1,500 real-robot trials", "the Sable simulation suite"),
        ("grasp success rate", "task completion rate", "cycle time", "sample efficiency"),
    ),
    Theme(
        "privacy", "Differential privacy", ("cs.CR", "cs.LG", "stat.ML"),
        (
            "Differential privacy bounds how much any one person's data can change the output of an analysis.",
            "Training models on sensitive data risks leaking the records they were trained on.",
            "Statistical agencies and companies release aggregate data under formal privacy guarantees.",
        ),
        ("give formal privacy guarantees with less accuracy loss", "account for privacy loss more tightly", "release useful statistics about sensitive data"),
        (
            c("differentially private SGD | DP-SGD training", "private stochastic gradient descent | training with clipped noisy gradients"),
            c("privacy accounting | tight composition bounds", "tracking how much privacy is spent | composing privacy loss across steps"),
            c("membership inference attacks | inferring training-set membership", "detecting whether a record was in the training set | membership leakage"),
            c("private synthetic data generation | differentially private data synthesis", "generating fake datasets with privacy guarantees | synthetic tables under DP"),
            c("local differential privacy | privacy at the data source", "randomizing data on the user's device | LDP protocols"),
        ),
        (
            c("Rényi differential privacy | Rényi divergence accounting", "RDP analysis | Renyi-based privacy bounds"),
            c("gradient clipping schemes | adaptive per-example clipping", "limiting each example's gradient norm | automatic clipping thresholds"),
            c("public pretraining | pretraining on public data before private fine-tuning", "starting from a model trained on non-sensitive data | public-data warm starts"),
            c("the shuffle model | shuffling reports to amplify privacy", "privacy amplification by shuffling | anonymous shuffled messages"),
        ),
        (
            c("for large language models | when fine-tuning language models", "for LLMs | for text generators"),
            c("for census statistics | in official statistics releases", "for population counts | for government data products"),
            c("for medical records | on electronic health records", "for patient data | for clinical databases"),
        ),
        ("CIFAR-style Pallid-10", "a census microdata sample", "the Kestrel EHR extract", "a 1B-token private text corpus"),
        ("accuracy at epsilon 1", "privacy budget", "attack AUC", "utility loss"),
    ),
    Theme(
        "compilers", "Compilers for tensor programs", ("cs.PL", "cs.LG", "cs.PF"),
        (
            "Deep learning frameworks depend on compilers that turn tensor programs into fast kernels for each device.",
            "Hand-tuned kernel libraries cannot keep up with the pace of new operators and accelerators.",
            "The same tensor operator can run orders of magnitude faster or slower depending on how its loops are scheduled.",
        ),
        ("generate faster kernels automatically", "search the space of loop schedules efficiently", "fuse operators without manual rewrites"),
        (
            c("tensor program autotuning | auto-tuning of kernel schedules", "automatically tuning tensor code | searching for the fastest loop transformation"),
            c("operator fusion | fusing adjacent operators", "merging layers into one kernel | combined kernel generation"),
            c("cost models for tensor programs | learned cost models", "predicting a kernel's runtime without running it | performance models for compiled code"),
            c("dynamic shape compilation | compiling programs with dynamic shapes", "inputs whose sizes vary at run time | shape-polymorphic compilation"),
            c("sparse tensor compilation | code generation for sparse tensors", "compiling sparse matrix kernels | irregular sparse formats"),
        ),
        (
            c("polyhedral transformations | the polyhedral model", "affine loop transformations | polyhedral scheduling"),
            BAYES,
            c("equality saturation | e-graph rewriting", "e-graphs | rewrite exploration with equality saturation"),
            TRANSFORMER,
        ),
        (
            c("for GPUs | on NVIDIA GPUs", "for graphics processors | on CUDA devices"),
            c("for custom AI accelerators | on tensor processing units", "for ASIC accelerators | on TPU-like chips"),
            c("for mobile CPUs | on ARM processors", "for phone processors | on ARM cores"),
        ),
        ("a suite of 120 transformer operators", "the Heron-like Kilnset", "MLPerf-style Pellet models", "500 sparse matrices from the Sorrel collection"),
        ("kernel speedup", "tuning time", "end-to-end latency", "prediction error"),
    ),
    Theme(
        "recsys", "Recommender systems", ("cs.IR", "cs.LG"),
        (
            "Recommender systems decide what billions of users see on shopping sites, streaming services and social media.",
            "Ranking items for users from sparse interaction logs remains central to online platforms.",
            "Modern recommenders must balance accuracy with freshness, diversity and fairness.",
        ),
        ("rank items users are likely to engage with", "learn user preferences from implicit feedback", "recommend new items without interaction history"),
        (
            c("sequential recommendation | next-item prediction from interaction sequences", "predicting what a user will click next | session-based recommenders"),
            c("cold-start recommendation | recommending new items and users", "items with no interaction history | new-user problem"),
            c("popularity bias | exposure bias towards popular items", "recommenders that favour already-popular content | long-tail items being ignored"),
            c("embedding table compression | compressing embedding tables", "shrinking huge ID embeddings | memory-efficient item embeddings"),
            c("click-through rate prediction | CTR models", "estimating the probability of a click | ad click prediction"),
        ),
        (
            TRANSFORMER,
            CONTRASTIVE,
            GNN_TECH,
            c("hashing tricks | feature hashing", "hashed embeddings | collision-tolerant hashing"),
        ),
        (
            c("for e-commerce | on online shopping platforms", "for retail websites | for online stores"),
            c("for short-video feeds | on video streaming services", "for clip-sharing apps | for streaming platforms"),
            c("for news articles | in news recommendation", "for headlines | for news readers"),
        ),
        ("a Tmall-like Bazaar log", "the MovieLens-style Reel-25M", "a 4-billion-event click log", "the Gazette news benchmark"),
        ("recall@20", "NDCG@10", "AUC", "coverage"),
    ),
    Theme(
        "med_seg", "Medical image segmentation", ("eess.IV", "cs.CV"),
        (
            "Delineating organs and lesions in medical scans is slow and tedious when done by hand.",
            "Automatic segmentation of medical images supports diagnosis, radiotherapy planning and surgery.",
            "Medical imaging datasets are small, expensive to annotate and vary between scanners.",
        ),
        ("outline structures in scans accurately", "reduce the annotation needed for training", "generalize across hospitals and scanners"),
        (
            c("tumour segmentation | delineating tumours", "outlining cancerous lesions | locating tumor boundaries"),
            c("organ segmentation in CT | multi-organ CT segmentation", "labelling abdominal organs in computed tomography | organ contours in CT volumes"),
            c("semi-supervised segmentation | learning from partly annotated scans", "using unlabelled images to train segmenters | partially labelled training"),
            c("domain adaptation across scanners | cross-site generalization", "models that work on another hospital's machines | scanner shift"),
            c("uncertainty estimation for segmentation | calibrated segmentation confidence", "knowing when the segmentation is unreliable | uncertainty maps"),
        ),
        (
            c("U-Net architectures | an encoder-decoder with skip connections", "UNet-style networks | encoder-decoder segmenters"),
            c("vision transformers | patch-based transformers", "ViT models | transformer backbones for images"),
            c("foundation segmentation models | prompting a promptable segmentation model", "segment-anything-style models | promptable foundation models"),
            CONTRASTIVE,
        ),
        (
            c("in brain MRI | on magnetic resonance images of the brain", "for brain scans | in neuroimaging"),
            c("in chest X-rays | on chest radiographs", "for lung radiographs | in thoracic X-ray images"),
            LOW_LABEL,
        ),
        ("BraTS-like Meninx", "a 40-organ abdominal CT set", "the Harrow chest X-ray collection", "1,200 prostate MRIs from four sites"),
        ("Dice score", "Hausdorff distance", "expected calibration error", "annotation time"),
    ),
    Theme(
        "gw", "Gravitational-wave data analysis", ("gr-qc", "astro-ph.IM", "astro-ph.HE"),
        (
            "Gravitational-wave detectors record faint signals from merging black holes and neutron stars buried in noise.",
            "The growing rate of gravitational-wave detections strains traditional analysis pipelines.",
            "Extracting astrophysics from gravitational-wave data requires fast and reliable statistical inference.",
        ),
        ("find faint signals in detector noise", "infer source parameters in seconds", "separate astrophysical signals from instrumental glitches"),
        (
            c("compact binary coalescence detection | searches for binary mergers", "finding merging black holes | spotting coalescing binaries"),
            c("parameter estimation | Bayesian inference of source parameters", "estimating masses and spins | posterior inference for sources"),
            c("glitch classification | classifying transient noise artefacts", "categorizing instrumental glitches | noise transients in the detector"),
            c("continuous wave searches | searches for continuous gravitational waves", "long-lived signals from spinning neutron stars | persistent periodic waves"),
            c("stochastic background detection | the stochastic gravitational-wave background", "the faint hum from unresolved sources | background of many weak signals"),
        ),
        (
            c("normalizing flows | neural posterior estimation with flows", "flow-based density estimators | simulation-based inference with flows"),
            c("matched filtering | template-bank matched filtering", "correlating data with waveform templates | template-based searches"),
            c("convolutional neural networks | deep convolutional classifiers", "CNN classifiers | convolutional detectors"),
            c("nested sampling | nested sampling of the likelihood", "evidence computation by nested samplers | sampling-based Bayesian evidence"),
        ),
        (
            c("for LIGO-Virgo observing runs | in ground-based interferometer data", "for the LIGO and Virgo detectors | in data from laser interferometers on the ground"),
            c("for space-based detectors | for LISA", "for the planned space interferometer | for detectors in orbit"),
            c("for pulsar timing arrays | with pulsar timing data", "using arrays of millisecond pulsars | with pulsar timing observations"),
        ),
        ("the O3-like Tamarisk segment", "simulated LISA data", "a set of 10,000 injected signals", "the Gravity Spy-style Wren glitch set"),
        ("detection sensitivity", "false alarm rate", "inference time", "posterior coverage"),
    ),
    Theme(
        "molgen", "Generative models for drug discovery", ("q-bio.BM", "cs.LG", "physics.chem-ph"),
        (
            "Drug discovery searches an astronomically large chemical space for molecules with the right properties.",
            "Generative models propose candidate molecules, but many are hard to synthesize or bind poorly.",
            "Designing small molecules that bind a protein pocket is central to medicinal chemistry.",
        ),
        ("propose molecules with desired properties", "design ligands that fit a binding pocket", "optimize candidates under several objectives"),
        (
            c("de novo molecule generation | generating novel molecules", "creating new chemical compounds from scratch | designing molecules from nothing"),
            c("structure-based drug design | generating ligands for a protein pocket", "designing binders for a target site | pocket-conditioned design"),
            c("synthesizability | synthetic accessibility of generated molecules", "whether a proposed compound can actually be made | retrosynthesis-aware generation"),
            c("multi-objective molecular optimization | optimizing several properties at once", "trading off potency and toxicity | Pareto optimisation of compounds"),
            c("binding affinity prediction | predicting protein-ligand affinity", "estimating how tightly a drug binds | affinity scoring"),
        ),
        (
            DIFFUSION,
            c("SMILES language models | autoregressive models over SMILES strings", "text-based molecule generators | string representations of chemistry"),
            RL,
            c("equivariant neural networks | E(3)-equivariant networks", "rotation-equivariant models | symmetry-aware 3D networks"),
        ),
        (
            c("for kinase inhibitors | against kinase targets", "for kinase drug targets | for inhibitors of kinases"),
            c("for antibiotics | against resistant bacteria", "for antimicrobial compounds | for drugs against superbugs"),
            LOW_LABEL,
        ),
        ("a ZINC-like Quarry library", "the CrossDocked-style Veld set", "GuacaMol-like Ferrule tasks", "2,400 measured affinities"),
        ("validity", "docking score", "novelty", "hit rate"),
    ),
    Theme(
        "lsm", "Key-value stores and LSM trees", ("cs.DB", "cs.OS", "cs.DC"),
        (
            "Log-structured merge trees power many key-value stores because they turn random writes into sequential ones.",
            "Storage engines for key-value workloads trade off read, write and space amplification.",
            "Modern databases rely on key-value stores whose performance depends on how data are laid out on flash.",
        ),
        ("cut write amplification", "serve point lookups with fewer disk reads", "keep tail latency stable under heavy writes"),
        (
            c("compaction policies | compaction scheduling in LSM trees", "merging sorted runs | when and how to merge levels"),
            c("write amplification | reducing write amplification", "bytes rewritten per byte inserted | extra writes caused by merging"),
            c("range query performance | range scans", "scanning key intervals | ordered scans"),
            c("tail latency under write stalls | write stalls", "latency spikes when writes are throttled | stalls caused by backlog"),
            c("memory allocation between buffers and filters | tuning memory for Bloom filters", "dividing RAM between caches and filters | filter memory budgets"),
        ),
        (
            c("learned indexes | learned index structures", "models that predict key positions | index learning"),
            c("Bloom filter variants | per-level Bloom filters", "probabilistic membership filters | approximate set filters"),
            c("key-value separation | separating values from keys", "storing values apart from the tree | value logs"),
            c("analytical cost models | a closed-form cost model", "mathematical performance models | analytic tuning models"),
        ),
        (
            c("on NVMe SSDs | for flash storage", "on solid-state drives | for NVMe devices"),
            c("on persistent memory | for byte-addressable non-volatile memory", "with NVM | on Optane-like memory"),
            c("for time-series workloads | under append-heavy time-series ingestion", "for metric ingestion | for timestamped data"),
        ),
        ("YCSB-style Ledger workloads", "a RocksDB-like engine", "production traces from a messaging service", "the DB-Bench-like Cask suite"),
        ("write amplification", "throughput", "p99 latency", "space amplification"),
    ),
    Theme(
        "causal", "Causal inference", ("stat.ME", "stat.ML", "econ.EM"),
        (
            "Estimating the effect of an intervention from observational data is confounded by who chose to be treated.",
            "Policy makers and clinicians need causal answers, not only predictive correlations.",
            "Randomized trials are expensive, so effects are often estimated from observational records.",
        ),
        ("estimate causal effects without bias", "quantify uncertainty about effects", "identify effects under weaker assumptions"),
        (
            c("heterogeneous treatment effect estimation | conditional average treatment effects", "how an intervention's benefit varies between individuals | CATE estimation"),
            c("unobserved confounding | sensitivity to hidden confounders", "confounders nobody measured | omitted-variable bias"),
            c("causal discovery | learning causal graphs from data", "recovering the causal structure | inferring DAGs"),
            c("instrumental variables | instrumental variable estimation", "using instruments to identify effects | IV methods"),
            c("off-policy evaluation | evaluating policies from logged data", "assessing a new policy with old logs | counterfactual evaluation"),
        ),
        (
            c("doubly robust estimation | double machine learning", "estimators that stay consistent if one model is wrong | debiased ML"),
            c("causal forests | random-forest-based effect estimation", "tree ensembles for effects | forest methods"),
            c("representation balancing | balanced representations", "learning covariate representations that look alike across groups | balancing features"),
            BAYES,
        ),
        (
            c("in observational health data | from electronic health records", "in hospital databases | with patient records"),
            c("in online experiments | for A/B tests", "in controlled web experiments | for split tests"),
            c("in economics | for labour-market policies", "for job training programmes | in policy evaluation"),
        ),
        ("IHDP-style Marrow data", "the Jobs-like Lattimer study", "a 30-million-user experiment log", "synthetic structural equation models"),
        ("PEHE", "bias", "coverage of intervals", "structural Hamming distance"),
    ),
    Theme(
        "nerf", "Neural rendering and 3D reconstruction", ("cs.CV", "cs.GR"),
        (
            "Reconstructing photorealistic 3D scenes from photographs is a long-standing goal of computer vision.",
            "Neural scene representations can render novel views of a scene from a handful of images.",
            "Rendering captured scenes in real time demands representations that are both accurate and fast to evaluate.",
        ),
        ("render novel viewpoints faithfully", "reconstruct geometry from casual captures", "speed up training and rendering"),
        (
            c("novel view synthesis | rendering unseen viewpoints", "generating images from new camera positions | view interpolation"),
            c("sparse-view reconstruction | reconstruction from few images", "building 3D models from a couple of photos | few-shot 3D reconstruction"),
            c("dynamic scene reconstruction | reconstructing moving scenes", "capturing scenes that change over time | 4D reconstruction"),
            c("surface reconstruction | recovering meshes", "extracting watertight geometry | mesh recovery"),
            c("large-scale scene reconstruction | city-scale reconstruction", "reconstructing entire neighbourhoods | urban-scale 3D models"),
        ),
        (
            c("neural radiance fields | NeRF models", "radiance field networks | volumetric neural rendering"),
            c("3D Gaussian splatting | Gaussian splats", "splatting of Gaussian primitives | anisotropic Gaussian representations"),
            c("signed distance functions | implicit SDF surfaces", "implicit surfaces | distance-field geometry"),
            DIFFUSION,
        ),
        (
            c("from smartphone captures | from casually captured phone videos", "from handheld phone footage | from videos taken on a mobile"),
            c("for autonomous driving scenes | from driving logs", "for self-driving car data | from street recordings"),
            c("in real time | at interactive frame rates", "at hundreds of frames per second | for live rendering"),
        ),
        ("Mip-360-like Glade scenes", "the Tanks-like Bastion set", "a 12-km driving capture", "the Forge synthetic objects"),
        ("PSNR", "SSIM", "frames per second", "Chamfer distance"),
    ),
    Theme(
        "offline_rl", "Offline reinforcement learning", ("cs.LG", "cs.AI", "cs.RO"),
        (
            "Offline reinforcement learning learns policies from fixed datasets without further interaction.",
            "Many real-world domains cannot afford online exploration, so policies must be learned from logged experience.",
            "Learning from static datasets invites overestimation of actions the data never tried.",
        ),
        ("learn good policies from logged data", "avoid overestimating unseen actions", "fine-tune offline policies safely online"),
        (
            c("distributional shift in offline RL | extrapolation error", "actions outside the dataset's support | out-of-distribution actions"),
            c("conservative value estimation | pessimistic Q-learning", "penalizing uncertain value estimates | lower-bound critics"),
            c("offline-to-online fine-tuning | online fine-tuning after offline pretraining", "continuing to learn once deployed | switching from logged data to interaction"),
            c("return-conditioned policies | sequence modelling of trajectories", "predicting actions given the desired return | treating RL as sequence prediction"),
            c("reward learning from preferences | learning rewards from human preferences", "inferring rewards from comparisons | preference-based reward models"),
        ),
        (
            TRANSFORMER,
            DIFFUSION,
            c("ensembles of critics | Q-ensembles", "many value networks voting | ensembled Q-functions"),
            c("behaviour regularization | policy constraints toward the data", "keeping the policy close to the logged actions | behaviour-cloning penalties"),
        ),
        (
            c("for robotic control | on continuous-control locomotion", "for robot arms and legs | for walking robots"),
            c("for recommendation | in recommender systems", "for ranking content | in recommenders"),
            c("for healthcare treatment policies | for sepsis treatment", "for clinical decision support | for treating patients in intensive care"),
        ),
        ("D4RL-like Tamber tasks", "the Atari-style Gallant replay", "an ICU cohort of 18,000 stays", "a logged-bandit click dataset"),
        ("normalized return", "success rate", "sample efficiency", "policy value"),
    ),
    Theme(
        "ts_anomaly", "Anomaly detection in time series", ("cs.LG", "stat.ML", "cs.DB"),
        (
            "Operators of large services watch thousands of metrics and must notice when any of them misbehaves.",
            "Detecting anomalies in multivariate time series is hard because labelled incidents are rare.",
            "Sensors in factories and power grids stream data in which faults must be caught early.",
        ),
        ("flag anomalies with fewer false alarms", "explain which signals caused an alert", "detect problems as data stream in"),
        (
            c("multivariate anomaly detection | anomalies across many correlated signals", "spotting unusual behaviour across several sensors at once | joint outlier detection"),
            c("root cause localization | locating the root cause of incidents", "finding which component caused a failure | incident diagnosis"),
            c("streaming anomaly detection | online detection on data streams", "catching anomalies as readings arrive | real-time outlier detection"),
            c("concept drift in monitoring | drifting normal behaviour", "normal patterns that change over time | evolving baselines"),
            c("anomaly explanation | interpretable anomaly scores", "telling operators why something was flagged | explainable alerts"),
        ),
        (
            c("reconstruction-based autoencoders | autoencoder reconstruction error", "autoencoders that rebuild the input | reconstruction scores"),
            TRANSFORMER,
            GNN_TECH,
            c("forecasting residuals | prediction-error scoring", "comparing forecasts with what happened | residual analysis"),
        ),
        (
            c("for cloud service monitoring | on microservice metrics", "for data-centre operations | for microservices"),
            c("for industrial control systems | on water treatment sensors", "for factory equipment | for industrial sensors"),
            c("for spacecraft telemetry | on satellite telemetry", "for satellites | for mission telemetry"),
        ),
        ("SMD-like Cobalt metrics", "the SWaT-style Weir testbed", "telemetry from 82 satellites", "the Yahoo-like Crag benchmark"),
        ("F1 score", "precision at k", "detection delay", "false alarm rate"),
    ),
    Theme(
        "code_llm", "Code generation with language models", ("cs.SE", "cs.CL", "cs.LG"),
        (
            "Large language models trained on source code can write programs from natural-language descriptions.",
            "Code assistants are now widely used, yet the code they produce is often subtly wrong.",
            "Generating correct programs requires reasoning that next-token prediction does not guarantee.",
        ),
        ("produce code that passes tests", "repair bugs automatically", "use execution feedback to improve programs"),
        (
            c("program synthesis from natural language | text-to-code generation", "writing programs from English descriptions | turning prompts into code"),
            c("automated program repair | fixing bugs automatically", "automatic bug fixing | patch generation"),
            c("repository-level code completion | completion with cross-file context", "completing code using the whole project | project-wide context"),
            c("test generation | generating unit tests", "writing tests automatically | creating test cases"),
            c("code translation | translating between programming languages", "porting code from one language to another | transpiling with models"),
        ),
        (
            c("execution feedback | self-debugging with execution results", "running the code and using the errors | feedback from test runs"),
            c("retrieval-augmented generation | retrieving relevant code snippets", "RAG for code | looking up similar code before generating"),
            RL,
            c("instruction tuning | fine-tuning on instructions", "instruction-following fine-tunes | supervised tuning on prompts"),
        ),
        (
            c("for Python | on Python benchmarks", "for Python programs | in Python"),
            c("for low-resource programming languages | for rarely used languages", "for languages with little code online | for niche languages"),
            c("in competitive programming | on contest problems", "for programming contests | on olympiad-style tasks"),
        ),
        ("HumanEval-like Lark", "the SWE-style Tallow issues", "a 40k-repository corpus", "the Codeforces-like Anvil set"),
        ("pass@1", "exact match", "fix rate", "compilation rate"),
    ),
    Theme(
        "single_cell", "Single-cell genomics", ("q-bio.GN", "q-bio.QM", "cs.LG"),
        (
            "Single-cell RNA sequencing measures gene expression in thousands of individual cells.",
            "Single-cell atlases reveal cell types and states that bulk measurements average away.",
            "Analysing single-cell data is complicated by sparsity, noise and differences between experiments.",
        ),
        ("identify cell types accurately", "integrate data from many experiments", "predict how cells respond to perturbations"),
        (
            c("cell type annotation | annotating cell types", "labelling cells by type | cell identity assignment"),
            c("batch effect correction | integrating batches", "removing technical differences between experiments | dataset integration"),
            c("perturbation response prediction | predicting responses to perturbations", "forecasting how cells react to drugs or knockouts | perturbation modelling"),
            c("trajectory inference | inferring developmental trajectories", "pseudotime ordering | reconstructing differentiation paths"),
            c("spatial transcriptomics | spatially resolved expression", "gene expression with tissue locations | spatial omics"),
        ),
        (
            c("variational autoencoders | a deep generative latent-variable model", "VAE models | latent variable networks"),
            TRANSFORMER,
            c("optimal transport | optimal-transport couplings", "OT-based alignment | Wasserstein matching"),
            GNN_TECH,
        ),
        (
            c("in tumour samples | for cancer tissue", "for cancer biopsies | in tumours"),
            c("in immune cells | for blood cells", "for lymphocytes | in immune profiling"),
            c("across species | for cross-species comparison", "between mouse and human | for comparisons between organisms"),
        ),
        ("a 1.3-million-cell atlas", "the Tabula-like Ferrin set", "Perturb-seq-style Lumen screens", "a 12-donor PBMC study"),
        ("annotation accuracy", "integration score", "correlation with measured responses", "runtime"),
    ),
)
