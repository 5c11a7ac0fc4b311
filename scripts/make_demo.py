#!/usr/bin/env python3
"""Write feedtui's offline demo data: invented papers in the arXiv API's Atom layout.

    python scripts/make_demo.py [OUT_DIR]      (default: src/feedtui/demo/data)

Every title, abstract, name, affiliation, venue and DOI below is invented from
the vocabularies in this file; nothing is copied from real papers. The output
is deterministic: the same seed gives byte-identical files, which the test
suite checks against the committed copy.

Each theme is a catalogue topic. Its papers carry the topic's phrases in the
abstract and a category its query accepts, so the catalogue's queries really
match them; about a quarter also carry a neighbouring topic's phrase and
category, so tags overlap. Weekly rates give the topics different momentum
shapes (rising, falling, steady, one nearly silent) over the weeks before the
demo epoch. The files are grouped by theme, as separate API answers would be,
and a few cross-topic papers appear in two files, as the API returns them for
both queries.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import random
import re
import textwrap
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import quote
from xml.sax.saxutils import escape, quoteattr

SEED = 20261127
EPOCH = datetime(2026, 11, 27, 18, 0, 0, tzinfo=UTC)
WEEKS = 20
CROSS_TOPIC_RATE = 0.25
DEFAULT_OUT = Path(__file__).resolve().parent.parent / "src" / "feedtui" / "demo" / "data"

ARXIV_NS = "http://arxiv.org/schemas/atom"
OPENSEARCH_NS = "http://a9.com/-/spec/opensearch/1.1/"


def ramp(first: float, last: float, start: int = 0, before: float = 0.0) -> list[float]:
    """Weekly rates: `before` until week `start`, then linear from `first` to `last` in the final week."""
    span = max(1, WEEKS - 1 - start)
    return [before if week < start else first + (last - first) * (week - start) / span for week in range(WEEKS)]


def steady(rate: float) -> list[float]:
    return [rate] * WEEKS


@dataclass(frozen=True)
class Theme:
    """A catalogue topic and the vocabulary its invented papers are written from.

    Every sentence in `hooks` contains one of the topic's query phrases, so any
    abstract opened with one matches the topic. Each of `links` is a neighbouring
    topic, a sentence carrying that topic's phrase, and a category its query
    accepts: a paper given the link matches the neighbour too. `style` picks the
    shared sentence templates ("systems" or "ml"); "science" themes bring their
    own `titles` and `results`.
    """

    name: str
    file: str
    primary: tuple[str, ...]
    cross: tuple[str, ...]
    rates: list[float]
    hooks: tuple[str, ...]
    links: tuple[tuple[str, str, str], ...] = ()
    ideas: tuple[str, ...] = ()
    techniques: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    metrics: tuple[str, ...] = ()
    workloads: tuple[str, ...] = ()
    baselines: tuple[str, ...] = ()
    hardware: tuple[str, ...] = ()
    results: tuple[str, ...] = ()
    titles: tuple[str, ...] = ()
    fields: tuple[str, ...] = ()
    big_team_rate: float = 0.05
    big_team: tuple[int, int] = (12, 18)
    style: str = "systems"


SYSTEM_TITLES = (
    "{Sys}: {Tech} for {Target}",
    "{Tech} for {Target}",
    "Rethinking {Target} with {Tech}",
    "Towards {Tech} in {Target}",
    r"{Sys}: Up to ${speedup}\times$ Faster {Target}",
    "Characterizing {Target}: A Measurement Study",
    "When {Tech} Meets {Target}",
    "{Sys}: Practical {Tech} for {Target}",
    r"{Tech} in $\mathcal{O}(n\log n)$ Time for {Target}",
)

METHODS = (
    "We present {sys}, a system that {idea}.",
    "This paper introduces {sys}, which {idea}.",
    "Our approach, {sys}, {idea}.",
    "We design {sys}: it {idea}, and revisits its choices online as the load shifts.",
)

SECOND_METHODS = (
    "To make this practical, {sys} relies on {tech} and a calibration pass that takes under {small} minutes per platform.",
    "The design rests on {tech}, which we formalise as an integer program and solve with a greedy relaxation.",
    "A lightweight profiler feeds {tech}, so no offline tuning is needed.",
)

SYSTEM_RESULTS = (
    r"On {count} {workload}, {sys} improves {metric} by ${speedup}\times$ over {baseline}.",
    r"Compared with {baseline}, {sys} reduces $p_{99}$ latency by {pct}\% and improves {metric} by ${speedup}\times$.",
    r"Its planner runs in $\mathcal{O}(n\log n)$ time for $n$ {unit}, against $O(n^2)$ for exhaustive search, and stays within {small}\% of an offline optimum.",
    r"On {hw}, {sys} delivers a ${speedup}\times$ improvement in {metric} over {baseline}.",
    r"We find that {baseline} leaves up to {pct}\% of the hardware idle, and that \emph{where} work runs matters more than how it is batched.",
)

ML_RESULTS = (
    r"On {count} {workload}, {sys} improves {metric} by {pct}\% over {baseline} with ${speedup}\times$ fewer {unit}.",
    r"We prove a convergence rate of $O(1/\sqrt{T})$ under standard assumptions, matching the best known rate for {baseline}.",
    r"The method adds only $\mathcal{O}(d)$ memory per step, against $O(d^2)$ for second-order alternatives.",
    r"Ablations show that \emph{both} components are needed: removing either costs up to {pct}\% of the gain.",
    r"On {hw}, {sys} reaches the accuracy of {baseline} ${speedup}\times$ sooner.",
)

CLOSINGS = (
    r"\emph{{sys}} is available as open source.",
    "We discuss limitations and the settings where the approach does not help.",
    "Code and data are available from the authors on request.",
    "",
    "",
)

THEMES: tuple[Theme, ...] = (
    # --- LLM systems -----------------------------------------------------
    Theme(
        name="LLM Inference",
        file="demo-llm-systems.xml",
        primary=("cs.LG", "cs.DC", "cs.CL"),
        cross=("cs.AR", "cs.PF", "cs.AI"),
        rates=ramp(1.5, 5.5),
        links=(
            ("KV-Cache Management", "Most of the gain comes from keeping the KV cache resident for requests that are likely to continue.", "cs.LG"),
            ("Disaggregated LLM Serving", "The policy also applies to disaggregated deployments, where prefill and decode run on separate machines.", "cs.DC"),
            ("Mixture-of-Experts Models", "The method also handles mixture-of-experts models, whose expert routing makes per-token cost uneven.", "cs.LG"),
            ("Edge Inference", "A reduced configuration brings the same benefit to on-device inference on laptops and phones.", "cs.LG"),
            ("FPGA Acceleration", "We also prototype the decoding kernel as an FPGA accelerator to study a fixed-function design point.", "cs.AR"),
            ("Heterogeneous Computing", "The scheduler treats CPUs and GPUs as one pool, which matters on the heterogeneous hardware of modern inference servers.", "cs.DC"),
        ),
        hooks=(
            "LLM inference is now a dominant cost of running language-model products, and most of it is spent waiting on memory rather than compute.",
            "Serving large language models at interactive speed is hard: the inference latency of a request depends on its prompt, its output length and everything else in the batch.",
            "Speculative decoding drafts several tokens with a small model and verifies them with the large one, but its benefit collapses when the draft is often wrong.",
            "LLM serving systems batch requests continuously to keep accelerators busy, at the price of unpredictable time to first token for new arrivals.",
            "Autoregressive decoding makes LLM inference memory-bound, so throughput depends more on data movement than on peak arithmetic.",
        ),
        ideas=(
            "predicts each request's output length and schedules the shortest expected jobs first",
            "drafts tokens with a shallow copy of the target model and adapts the draft length per request",
            "splits long prompts into chunks that are interleaved with decoding steps",
            "routes requests across replicas using a queueing model of decoding throughput",
            "fuses attention and sampling into one kernel so each decoding step reads the weights once",
        ),
        techniques=("Length-Aware Scheduling", "Adaptive Speculative Decoding", "Chunked Prefill", "Token-Level Preemption", "Weight Streaming"),
        targets=("Low-Latency LLM Inference", "Batched LLM Serving", "Long-Context Decoding", "Multi-Tenant Inference Clusters", "LLM Serving on Commodity GPUs"),
        metrics=("decoding throughput", "goodput", "tokens per second per GPU", "tail latency"),
        workloads=("chat and summarisation traces", "production-like request traces", "long-document workloads"),
        baselines=("first-come-first-served batching", "a static batching server", "state-of-the-art serving engines"),
        hardware=("a node with eight data-centre GPUs", "a single consumer GPU", "a 32-GPU cluster"),
        fields=("Computer Systems", "Machine Learning Systems", "Data-Centre Computing"),
        big_team_rate=0.12,
    ),
    Theme(
        name="KV-Cache Management",
        file="demo-llm-systems.xml",
        primary=("cs.LG", "cs.DC", "cs.CL"),
        cross=("cs.AR", "cs.OS"),
        rates=ramp(0.6, 4.0, start=10, before=0.6),
        links=(
            ("LLM Inference", "End to end, this shortens LLM inference for long prompts without retraining.", "cs.LG"),
            ("Disaggregated LLM Serving", "The compact cache also makes disaggregated prefill and decode cheaper, since less state crosses the network.", "cs.DC"),
            ("Compute-in-Memory", "We sketch how near-memory processing could apply the eviction scores inside the memory modules.", "cs.AR"),
        ),
        hooks=(
            "The KV cache of a long conversation can outgrow the model weights, and it caps how many requests fit on one accelerator.",
            "Prefix caching lets requests that share a system prompt reuse attention state, but eviction policies designed for CPU caches fit it poorly.",
            "Compressing the key-value cache trades memory for accuracy, and how much accuracy is lost depends on which tokens are dropped.",
            "Paging the KV cache between GPU memory, host memory and SSDs opens room for longer contexts if transfers can be hidden.",
        ),
        ideas=(
            "quantises cold KV cache blocks to four bits while keeping recent tokens in full precision",
            "scores each cached token by the attention it receives and evicts the least useful ones first",
            "shares KV cache pages across requests with a common prefix through a radix tree",
            "offloads KV cache blocks to host memory and prefetches them one layer ahead of use",
        ),
        techniques=("Attention-Guided Eviction", "Mixed-Precision KV Quantization", "Prefix Sharing", "Layer-Ahead Prefetching", "Tiered KV Storage"),
        targets=("Long-Context LLM Inference", "KV Cache Compression", "Multi-Turn Chat Serving", "Memory-Bound Decoding"),
        metrics=("batch size at equal memory", "throughput", "context length served"),
        workloads=("long-context benchmarks", "multi-turn conversation traces", "retrieval-heavy prompts"),
        baselines=("full-precision caching", "sliding-window eviction", "recency-based eviction"),
        hardware=("a single 80 GB accelerator", "a server with two GPUs and 1 TB of host memory"),
        fields=("Computer Systems", "Machine Learning Systems", "Natural Language Processing"),
    ),
    Theme(
        name="Disaggregated LLM Serving",
        file="demo-llm-systems.xml",
        primary=("cs.DC",),
        cross=("cs.LG", "cs.NI", "cs.AR"),
        rates=ramp(0.4, 3.0, start=9),
        links=(
            ("KV-Cache Management", "Transfers stay cheap because the KV cache is sent in compressed form.", "cs.LG"),
            ("LLM Inference", "Across the whole LLM inference path, time to first token also improves.", "cs.LG"),
            ("Heterogeneous Computing", "Pools may use different accelerator generations, so placement becomes a heterogeneous computing problem.", "cs.AR"),
        ),
        hooks=(
            "Disaggregated serving runs the prefill and decode phases of a request on different machines, so each phase can be provisioned for its own bottleneck.",
            "Prefill is compute-bound and decode is memory-bound, which makes disaggregation of the two phases attractive but puts the KV cache on the network.",
            "Disaggregated inference clusters must decide how many prefill and decode instances to run as the mix of prompts changes through the day.",
            "Splitting LLM serving into disaggregated prefill and decode pools removes interference between the phases but adds a transfer on every request.",
        ),
        ideas=(
            "sizes the prefill and decode pools from a fluid model of the arrival mix and rebalances them every few minutes",
            "streams the KV cache layer by layer from prefill to decode instances so the transfer overlaps computation",
            "places prefill on older accelerators and decode on high-bandwidth ones to cut cost per token",
            "compresses the state handed from prefill to decode and schedules transfers to avoid network hot spots",
        ),
        techniques=("Phase-Aware Scheduling", "Elastic Pool Sizing", "Layer-Wise State Streaming", "Cost-Aware Placement"),
        targets=("Disaggregated LLM Serving", "Prefill-Decode Disaggregation", "Heterogeneous Inference Clusters", "Phase-Split Serving"),
        metrics=("goodput under latency targets", "cost per million tokens", "decode throughput"),
        workloads=("production-like traces", "bursty chat workloads", "long-prompt summarisation traces"),
        baselines=("colocated serving", "a fixed prefill-to-decode ratio", "chunked-prefill colocation"),
        hardware=("a 64-GPU cluster with a 400 Gb/s fabric", "a mixed cluster of two accelerator generations"),
        fields=("Computer Systems", "Distributed Systems", "Networked Systems"),
        big_team_rate=0.15,
    ),
    Theme(
        name="Mixture-of-Experts Models",
        file="demo-llm-systems.xml",
        primary=("cs.LG", "cs.CL"),
        cross=("cs.DC", "cs.AI"),
        rates=steady(1.4),
        links=(
            ("Distributed Training", "Expert layers are trained with expert parallelism on top of data parallelism.", "cs.DC"),
            ("LLM Inference", "At serving time, the routing predictor also reduces LLM inference latency by prefetching experts.", "cs.DC"),
            ("Edge Inference", "A pruned variant with four experts fits on an edge device for inference within a 2 GB budget.", "cs.LG"),
        ),
        hooks=(
            "Mixture-of-experts models grow their parameter count without growing the compute per token, since each token visits only a few experts.",
            "Expert routing in sparse models is learned jointly with the experts, and imbalanced routing wastes capacity and destabilises training.",
            "Serving a mixture of experts model means moving tokens to wherever their experts live, which turns inference into a communication problem.",
            "Fine-grained mixture-of-experts layers use many small experts, which improves quality but strains the all-to-all exchange.",
        ),
        ideas=(
            "balances expert routing with a bias term updated from running load statistics instead of an auxiliary loss",
            "replicates popular experts and drops cold ones on the fly based on routing histograms",
            "merges rarely used experts after training with a small calibration set",
            "predicts each token's experts one layer early so their weights can be prefetched",
        ),
        techniques=("Load-Balanced Expert Routing", "Expert Replication", "Expert Merging", "Early Routing Prediction"),
        targets=("Sparse Mixture-of-Experts Models", "Mixture-of-Experts Inference", "Expert-Parallel Training", "Fine-Grained Experts"),
        metrics=("perplexity", "tokens per second", "expert utilisation"),
        workloads=("language-modelling benchmarks", "downstream reasoning tasks", "multilingual corpora"),
        baselines=("top-2 routing with an auxiliary loss", "dense models of equal compute", "static expert placement"),
        hardware=("a 16-GPU node group", "a single host with four GPUs"),
        fields=("Machine Learning", "Natural Language Processing", "Computer Systems"),
        style="ml",
        big_team_rate=0.1,
    ),
    Theme(
        name="Distributed Training",
        file="demo-llm-systems.xml",
        primary=("cs.DC", "cs.LG"),
        cross=("cs.PF", "cs.NI"),
        rates=steady(1.4),
        links=(
            ("Pipeline Parallelism", "The planner also decides how many stages to use when pipeline parallelism is enabled.", "cs.DC"),
            ("High-Performance Computing", "Experiments run on an HPC system with a fat-tree interconnect.", "cs.DC"),
            ("Federated Learning", "The compression scheme also cuts upload traffic in federated learning.", "cs.LG"),
            ("Heterogeneous Computing", "Workers may mix accelerator types, and the planner balances load on such heterogeneous hardware.", "cs.DC"),
        ),
        hooks=(
            "Distributed training of large models spreads each step over thousands of accelerators, where a single slow link stalls everyone.",
            "Data parallelism scales well until gradient synchronisation dominates the step time.",
            "Tensor parallelism splits each layer across devices and puts collective communication on the critical path of every layer.",
            "Gradient compression promises to cut communication in distributed training, but its savings often vanish once encoding costs are counted.",
        ),
        ideas=(
            "overlaps gradient synchronisation with the backward pass by reordering buckets according to measured link speeds",
            "checkpoints model state to peer memory so a failed worker rejoins within seconds",
            "chooses a parallelism layout per layer with a cost model calibrated on the target cluster",
            "compresses gradients with error feedback and switches compression off when the network is idle",
        ),
        techniques=("Topology-Aware Collectives", "In-Memory Checkpointing", "Automatic Parallelism Planning", "Adaptive Gradient Compression"),
        targets=("Large-Scale Distributed Training", "Fault-Tolerant Training", "Training on Shared Clusters", "Communication-Efficient Training"),
        metrics=("training throughput", "time to accuracy", "model FLOPs utilisation"),
        workloads=("language-model pre-training runs", "vision-transformer training jobs", "recommendation models"),
        baselines=("ring all-reduce", "a hand-tuned parallelism layout", "periodic checkpointing to remote storage"),
        hardware=("a 256-GPU cluster", "1,024 accelerators across four pods"),
        fields=("Distributed Systems", "Machine Learning Systems", "Computer Networks"),
        big_team_rate=0.15,
    ),
    Theme(
        name="Pipeline Parallelism",
        file="demo-llm-systems.xml",
        primary=("cs.DC",),
        cross=("cs.LG", "cs.PF"),
        rates=steady(0.6),
        links=(
            ("Distributed Training", "The schedule composes with tensor parallelism inside each stage.", "cs.LG"),
            ("LLM Inference", "The same stage balancing speeds up pipelined LLM inference across several GPUs.", "cs.LG"),
            ("Heterogeneous Computing", "Stages can be mapped to different GPU types, turning partitioning into a problem of heterogeneous computing.", "cs.DC"),
        ),
        hooks=(
            "Pipeline parallelism assigns consecutive layers to different devices, and the pipeline bubble at the start and end of each step wastes their time.",
            "A good pipeline schedule must balance memory for stored activations against idle time, and the best choice depends on the model and the cluster.",
            "Pipeline parallel training of very deep models suffers when stages are unbalanced, since the slowest stage sets the pace.",
        ),
        ideas=(
            "searches interleaved pipeline schedules with a memory-aware cost model and picks one per training run",
            "splits the backward pass into input and weight gradients to fill the pipeline bubble",
            "rebalances layers across stages at run time from measured stage times",
        ),
        techniques=("Bubble-Free Scheduling", "Stage Rebalancing", "Zero-Bubble Pipelines", "Memory-Aware Pipeline Planning"),
        targets=("Pipeline-Parallel Training", "Deep Transformer Training", "Pipelined Inference", "Heterogeneous Pipelines"),
        metrics=("pipeline utilisation", "training throughput", "peak activation memory"),
        workloads=("transformer models from 1B to 70B parameters", "deep recommendation models"),
        baselines=("one-forward-one-backward schedules", "uniform layer partitioning", "GPipe-style fill-and-drain schedules"),
        hardware=("a 64-GPU cluster", "two nodes of eight GPUs"),
        fields=("Distributed Systems", "Machine Learning Systems"),
    ),
    # --- Edge, hardware and HPC ------------------------------------------
    Theme(
        name="Heterogeneous Computing",
        file="demo-hardware-edge.xml",
        primary=("cs.DC", "cs.AR", "cs.PF"),
        cross=("cs.PL", "cs.OS", "cs.LG"),
        rates=ramp(0.5, 2.5, start=14, before=0.5),
        links=(
            ("High-Performance Computing", "We evaluate the runtime on an HPC cluster with three kinds of accelerators per node.", "cs.DC"),
            ("FPGA Acceleration", "For streaming kernels, the runtime offloads work to an FPGA accelerator generated with high-level synthesis.", "cs.AR"),
            ("Edge Inference", "A case study places the stages of a vision model on an edge device for inference across its CPU, GPU and NPU.", "cs.LG"),
            ("LLM Inference", "A case study on LLM inference shows the runtime splitting attention and feed-forward layers across devices.", "cs.LG"),
        ),
        hooks=(
            "Heterogeneous computing platforms pair CPUs with GPUs, FPGAs and other accelerators, yet most runtimes still schedule each device in isolation.",
            "Programming heterogeneous systems remains hard: every device brings its own memory model, launch overheads and toolchain.",
            "Data movement between devices dominates the cost of many applications on heterogeneous hardware.",
            "Performance portability across heterogeneous platforms is usually bought with hand-tuned kernels for every target.",
        ),
        ideas=(
            "builds a performance model for each device from a few profiling runs and places tasks where they finish earliest",
            "keeps a single address space across CPU and accelerator memory and migrates pages ahead of the kernels that need them",
            "compiles one kernel description to several back ends and chooses among them at run time",
            "partitions dataflow graphs across devices so that transfers overlap with computation",
        ),
        techniques=("Cost-Aware Task Placement", "Unified Memory Management", "Device-Agnostic Kernel Selection", "Dataflow Partitioning", "Work Stealing"),
        targets=("CPU-GPU-FPGA Systems", "Heterogeneous Clusters", "Multi-Accelerator Nodes", "Chiplet-Based Processors", "Heterogeneous SoCs"),
        metrics=("makespan", "energy-delay product", "throughput", "device utilisation"),
        workloads=("task graphs", "scientific kernels", "inference pipelines", "streaming applications"),
        baselines=("a greedy earliest-finish-time scheduler", "static round-robin placement", "vendor runtimes"),
        hardware=("a node with a CPU, two GPUs and an FPGA", "an embedded SoC with four kinds of cores"),
        fields=("Parallel Systems", "Computer Architecture", "Computer Engineering"),
    ),
    Theme(
        name="Edge Computing",
        file="demo-hardware-edge.xml",
        primary=("cs.DC", "cs.NI"),
        cross=("eess.SY", "cs.IT"),
        rates=ramp(3.5, 0.3),
        links=(
            ("Edge Inference", "One use case is edge inference for video analytics, where frames are processed close to the cameras.", "cs.CV"),
            ("Federated Learning", "We also use the edge servers as aggregators for federated learning among nearby devices.", "cs.LG"),
            ("Heterogeneous Computing", "Edge nodes differ widely in their accelerators, so the scheduler is built for heterogeneous hardware.", "cs.DC"),
            ("Reinforcement Learning", "The offloading policy is trained with deep reinforcement learning.", "cs.LG"),
        ),
        hooks=(
            "Edge computing moves computation from distant clouds to servers near the users, trading abundant resources for low latency.",
            "Mobile edge networks must decide which tasks to run locally, which to send to an edge server and which to forward to the cloud.",
            "Computation offloading from phones and sensors saves energy only when the radio link and the edge server are not congested.",
            "Edge-cloud systems must place services across tiers whose capacity and latency change with user mobility.",
        ),
        ideas=(
            "formulates task offloading as a stochastic game and solves it with a decentralised best-response scheme",
            "predicts user mobility and migrates service state before hand-overs",
            "co-schedules radio and compute resources under a joint latency budget",
            "prices edge capacity dynamically so that devices offload only when it pays off",
        ),
        techniques=("Mobility-Aware Service Migration", "Joint Radio and Compute Scheduling", "Decentralised Offloading", "Dynamic Pricing"),
        targets=("Multi-Access Edge Computing", "Vehicular Edge Networks", "Edge-Cloud Continuum", "IoT Offloading"),
        metrics=("task completion latency", "energy consumption", "deadline satisfaction"),
        workloads=("simulated city-scale deployments", "vehicular traces", "augmented-reality workloads"),
        baselines=("nearest-server offloading", "cloud-only execution", "a deep reinforcement learning baseline"),
        hardware=("a testbed of five edge servers", "a 5G campus network"),
        fields=("Networked Systems", "Telecommunications", "Electrical Engineering"),
    ),
    Theme(
        name="Edge Inference",
        file="demo-hardware-edge.xml",
        primary=("cs.LG", "cs.CV", "cs.AR"),
        cross=("cs.DC", "eess.SP"),
        rates=steady(1.1),
        links=(
            ("Edge Computing", "When the network allows, part of the model is offloaded to a nearby edge server.", "cs.NI"),
            ("FPGA Acceleration", "We also synthesise the network onto a small FPGA accelerator for comparison.", "cs.AR"),
            ("Compute-in-Memory", "An estimate for compute-in-memory hardware suggests a further tenfold energy saving.", "cs.ET"),
            ("Heterogeneous Computing", "The runtime spreads layers across the CPU, GPU and DSP of a phone, treating it as heterogeneous hardware.", "cs.DC"),
            ("LLM Inference", "We extend the approach to small language models, halving LLM inference latency on the phone.", "cs.CL"),
        ),
        hooks=(
            "Edge inference keeps data on the device and answers within milliseconds, but phones and microcontrollers have little memory and a tight power budget.",
            "On-device inference for vision models must fit in a few megabytes of memory and run on a battery.",
            "TinyML pushes neural networks onto microcontrollers with kilobytes of RAM, where every layer must be planned by hand.",
            "Running a deep neural network on an edge device forces a trade-off between accuracy, latency and energy that shifts with the workload.",
        ),
        ideas=(
            "searches for early-exit points so that easy inputs leave the network after a few layers",
            "partitions a model between the device and a nearby server according to the current bandwidth",
            "schedules layers to keep peak memory under the budget of a microcontroller",
            "quantises activations per channel with a calibration set of a few hundred images",
        ),
        techniques=("Early-Exit Networks", "Adaptive Model Partitioning", "Memory-Aware Layer Scheduling", "Per-Channel Quantization"),
        targets=("Edge Inference on Microcontrollers", "On-Device Vision", "Battery-Powered Sensing", "Mobile Speech Recognition"),
        metrics=("latency", "energy per inference", "accuracy at equal memory"),
        workloads=("image classification and keyword-spotting tasks", "detection benchmarks", "wearable sensing datasets"),
        baselines=("uniform 8-bit quantization", "cloud offloading", "hand-written deployment scripts"),
        hardware=("a microcontroller with 512 KB of SRAM", "a mid-range phone", "an embedded GPU board"),
        fields=("Embedded Systems", "Machine Learning", "Computer Engineering"),
        style="ml",
    ),
    Theme(
        name="Federated Learning",
        file="demo-hardware-edge.xml",
        primary=("cs.LG", "cs.DC", "cs.CR"),
        cross=("stat.ML", "cs.NI", "cs.AI"),
        rates=ramp(3.5, 0.8),
        links=(
            ("Edge Computing", "Aggregation runs at the edge server closest to each group of clients.", "cs.NI"),
            ("Distributed Training", "Updates are compressed with gradient compression schemes borrowed from datacentre training.", "cs.DC"),
            ("Edge Inference", "After training, the personalised model runs on-device inference without a server.", "cs.LG"),
        ),
        hooks=(
            "Federated learning trains a shared model on data that never leaves the clients, but clients differ in their data, hardware and availability.",
            "Federated averaging converges slowly when client data are far from identically distributed.",
            "Federated optimization over unreliable networks must tolerate clients that drop out in the middle of a round.",
            "Privacy in federated learning is not automatic: model updates can leak training examples to a curious server.",
        ),
        ideas=(
            "clusters clients by the similarity of their updates and trains one model per cluster",
            "corrects client drift with control variates that cost one extra vector per round",
            "selects clients by their expected contribution and their chance of finishing the round",
            "adds calibrated noise to clipped updates so that each round is differentially private",
        ),
        techniques=("Client Clustering", "Drift Correction", "Contribution-Aware Client Selection", "Secure Aggregation", "Personalised Heads"),
        targets=("Federated Learning with Non-IID Data", "Cross-Device Federated Learning", "Federated Fine-Tuning", "Private Federated Analytics"),
        metrics=("final accuracy", "communication rounds", "client energy"),
        workloads=("non-IID image and text benchmarks", "simulated cross-device populations", "medical imaging silos"),
        baselines=("federated averaging", "FedProx-style proximal training", "centralised training"),
        hardware=("a simulated population of 1,000 clients", "a testbed of 40 phones"),
        fields=("Machine Learning", "Privacy and Security", "Distributed Systems"),
        style="ml",
    ),
    Theme(
        name="Compute-in-Memory",
        file="demo-hardware-edge.xml",
        primary=("cs.AR", "cs.ET"),
        cross=("cs.LG", "eess.SP"),
        rates=steady(0.7),
        links=(
            ("Edge Inference", "The macro targets always-on edge inference in battery-powered sensors.", "cs.LG"),
            ("FPGA Acceleration", "We validate the digital periphery on an FPGA before tape-out, using it as an accelerator prototype.", "cs.AR"),
        ),
        hooks=(
            "Compute-in-memory arrays perform matrix-vector products where the weights are stored, avoiding the data movement that dominates accelerator energy.",
            "Analog in-memory computing with resistive devices is dense and efficient, but device variation and drift corrupt the results.",
            "Processing-in-memory places simple cores beside DRAM banks, which helps memory-bound kernels only if data are laid out for it.",
            "SRAM-based computing-in-memory macros trade precision for efficiency through their analog-to-digital converters.",
        ),
        ideas=(
            "calibrates each crossbar column with a few reference inputs and corrects drift in the digital periphery",
            "lays out tensors across DRAM banks so that in-bank units work on independent slices",
            "shares analog-to-digital converters among columns with a time-multiplexed readout",
            "trains networks with noise injection matched to measured device statistics",
        ),
        techniques=("Drift-Aware Calibration", "Bank-Level Data Layout", "Shared ADC Readout", "Noise-Aware Training"),
        targets=("ReRAM Crossbar Accelerators", "SRAM Compute-in-Memory Macros", "DRAM Processing-in-Memory", "Analog AI Hardware"),
        metrics=("energy efficiency", "TOPS per watt", "accuracy under device noise"),
        workloads=("convolutional and transformer inference tasks", "graph analytics kernels", "sparse linear algebra kernels"),
        baselines=("a digital systolic array", "a GPU baseline", "noise-agnostic training"),
        hardware=("a 28 nm test chip", "a cycle-accurate simulator of a 64-bank system"),
        fields=("Electrical Engineering", "Computer Architecture", "Microelectronics"),
    ),
    Theme(
        name="FPGA Acceleration",
        file="demo-hardware-edge.xml",
        primary=("cs.AR",),
        cross=("cs.DC", "cs.LG", "eess.SP"),
        rates=steady(0.9),
        links=(
            ("Heterogeneous Computing", "The accelerator is integrated into a heterogeneous computing node next to CPUs and GPUs.", "cs.DC"),
            ("Edge Inference", "The design targets edge inference in drones and smart cameras.", "cs.LG"),
            ("High-Performance Computing", "We also deploy it on the FPGA partition of an HPC centre.", "cs.DC"),
        ),
        hooks=(
            "FPGA accelerators offer custom datapaths at low power, but designing them with high-level synthesis still takes weeks of expert tuning.",
            "An FPGA can hold a whole dataflow pipeline on chip, making acceleration of streaming workloads attractive when off-chip bandwidth is scarce.",
            "Deploying neural networks on an FPGA accelerator requires choosing tiling, parallelism and precision for every layer.",
        ),
        ideas=(
            "generates dataflow designs from a tensor description and explores tiling with a learned cost model",
            "pipelines layers across the fabric so that intermediate results never leave the chip",
            "reconfigures part of the fabric at run time to match the phase of the application",
            "packs low-precision operations into DSP blocks to double arithmetic density",
        ),
        techniques=("High-Level Synthesis Design Space Exploration", "Layer Pipelining", "Partial Reconfiguration", "DSP Packing"),
        targets=("FPGA Acceleration of Transformers", "Streaming Dataflow Accelerators", "FPGA-Based Network Functions", "Reconfigurable Computing"),
        metrics=("throughput per watt", "resource utilisation", "latency"),
        workloads=("neural-network layers", "genomics kernels", "packet-processing pipelines"),
        baselines=("a CPU implementation", "a GPU implementation", "vendor HLS defaults"),
        hardware=("a mid-range FPGA card", "a data-centre FPGA with HBM"),
        fields=("Computer Engineering", "Reconfigurable Computing", "Electrical Engineering"),
    ),
    Theme(
        name="Spiking Neural Networks",
        file="demo-hardware-edge.xml",
        primary=("cs.NE",),
        cross=("cs.ET", "cs.AR"),
        rates=[0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0],
        hooks=(
            "Spiking neural networks communicate with sparse binary events, which suits neuromorphic hardware but makes gradient-based training awkward.",
            "Each spiking neuron integrates its inputs over time, so the network's accuracy depends on how many time steps inference may take.",
        ),
        ideas=(
            "trains with a surrogate gradient whose width adapts to the membrane potential statistics",
            "converts trained networks to spikes with per-layer thresholds chosen to minimise time steps",
        ),
        techniques=("Adaptive Surrogate Gradients", "Low-Latency Conversion", "Event-Driven Training"),
        targets=("Spiking Neural Networks", "Neuromorphic Vision", "Event-Based Sensing"),
        metrics=("accuracy", "number of time steps", "synaptic operations"),
        workloads=("event-camera datasets", "static image benchmarks"),
        baselines=("rate-coded conversion", "fixed surrogate gradients"),
        hardware=("a neuromorphic research chip",),
        fields=("Neuromorphic Engineering", "Computational Neuroscience"),
        style="ml",
    ),
    Theme(
        name="High-Performance Computing",
        file="demo-hardware-edge.xml",
        primary=("cs.DC", "cs.PF", "physics.comp-ph"),
        cross=("cs.MS", "cs.AR"),
        rates=steady(1.1),
        links=(
            ("Heterogeneous Computing", "Nodes combine CPUs with GPUs of two vendors, a heterogeneous computing setting that current runtimes handle poorly.", "cs.DC"),
            ("Distributed Training", "We show the same technique speeds up distributed training of surrogate models.", "cs.LG"),
            ("FPGA Acceleration", "An FPGA accelerator compresses the output stream before it reaches storage.", "cs.AR"),
        ),
        hooks=(
            "Exascale supercomputers deliver their peak only to codes that keep hundreds of thousands of GPUs busy and communicate sparingly.",
            "High-performance computing centres increasingly run AI jobs beside simulations, which strains schedulers built for one kind of work.",
            "HPC applications spend a growing share of their time in I/O and communication rather than arithmetic.",
            "Performance portability lets one HPC code run on several supercomputer architectures, at a cost that is rarely measured carefully.",
        ),
        ideas=(
            "overlaps halo exchanges with interior computation using device-initiated communication",
            "co-schedules simulation and training jobs on shared nodes using memory-bandwidth partitioning",
            "aggregates small I/O requests into large aligned writes through a burst-buffer tier",
            "auto-tunes kernel launch parameters per architecture from a portable description",
        ),
        techniques=("Communication-Computation Overlap", "Co-Scheduling", "Burst-Buffer I/O Aggregation", "Portable Auto-Tuning"),
        targets=("Exascale Simulations", "Mixed AI and Simulation Workloads", "Parallel I/O at Scale", "Performance-Portable Stencil Codes"),
        metrics=("time to solution", "parallel efficiency", "I/O bandwidth"),
        workloads=("climate and combustion proxy applications", "lattice and molecular-dynamics codes", "mini-apps"),
        baselines=("bulk-synchronous MPI", "exclusive node allocation", "the default I/O stack"),
        hardware=("4,096 nodes of a GPU supercomputer", "a 512-node CPU cluster"),
        fields=("Scientific Computing", "Parallel Systems", "Computational Science"),
        big_team_rate=0.3,
        big_team=(12, 25),
    ),
    # --- Learning and robotics -------------------------------------------
    Theme(
        name="Reinforcement Learning",
        file="demo-learning-robotics.xml",
        primary=("cs.LG", "cs.AI", "cs.RO"),
        cross=("stat.ML", "eess.SY"),
        rates=steady(1.8),
        links=(
            ("Edge Computing", "As an application, the agent learns computation offloading policies for mobile users.", "cs.NI"),
            ("Visual SLAM", "The robot localises itself with visual SLAM running onboard.", "cs.RO"),
            ("LLM Inference", "We also fine-tune language models with the method, where rollouts are slow because of LLM inference.", "cs.CL"),
            ("Causal Inference", "Off-policy evaluation is framed as causal inference on logged decisions.", "stat.ML"),
        ),
        hooks=(
            "Reinforcement learning agents need millions of interactions to learn behaviours that humans pick up in a few trials.",
            "Offline reinforcement learning learns from a fixed dataset, where actions the data never tried look deceptively good.",
            "Policy gradient methods are simple and general, but their variance grows with the horizon of the task.",
            "Exploration in a Markov decision process with sparse rewards remains the main obstacle to sample-efficient learning.",
        ),
        ideas=(
            "learns a world model and plans in its latent space with a short look-ahead",
            "penalises value estimates for actions outside the support of the dataset",
            "shapes exploration with a count-based bonus computed on learned state features",
            "reuses past trajectories through importance weights clipped per decision",
        ),
        techniques=("Latent World Models", "Conservative Value Estimation", "Count-Based Exploration", "Off-Policy Correction"),
        targets=("Sample-Efficient Reinforcement Learning", "Offline Reinforcement Learning", "Robotic Manipulation", "Sparse-Reward Exploration"),
        metrics=("normalised return", "success rate", "sample efficiency"),
        workloads=("continuous-control tasks", "manipulation benchmarks", "procedurally generated games"),
        baselines=("model-free baselines", "behaviour cloning", "prior offline methods"),
        hardware=("a real robot arm", "a quadruped in simulation"),
        fields=("Machine Learning", "Robotics", "Artificial Intelligence"),
        style="ml",
    ),
    Theme(
        name="Visual SLAM",
        file="demo-learning-robotics.xml",
        primary=("cs.RO", "cs.CV"),
        cross=("cs.CV", "cs.RO"),
        rates=ramp(2.0, 0.2),
        links=(
            ("Reinforcement Learning", "Active exploration is learned with reinforcement learning to reduce map uncertainty.", "cs.LG"),
            ("Edge Inference", "The whole pipeline runs edge inference on the embedded computer of a small drone.", "cs.CV"),
            ("Heterogeneous Computing", "Tracking and mapping are split across the CPU and GPU of an embedded board, a small platform for heterogeneous computing.", "cs.DC"),
        ),
        hooks=(
            "Visual SLAM builds a map and tracks the camera at the same time, and it fails when the scene is dark, blurred or changing.",
            "Visual-inertial odometry fuses camera and IMU data to stay accurate through fast motion.",
            "Dense SLAM with an RGB-D camera produces detailed maps at a cost that limits it to small scenes.",
            "Monocular SLAM cannot observe scale directly, so drift accumulates over long trajectories.",
        ),
        ideas=(
            "tracks learned keypoints and rejects those on moving objects with a motion-consistency test",
            "represents the map as a set of Gaussian primitives optimised jointly with camera poses",
            "detects loop closures with a global descriptor and verifies them geometrically",
            "estimates metric scale from a learned depth prior fused into bundle adjustment",
        ),
        techniques=("Learned Keypoint Tracking", "Gaussian Map Representations", "Robust Loop Closure", "Learned Depth Priors"),
        targets=("Visual SLAM in Dynamic Scenes", "Visual-Inertial Odometry", "Dense RGB-D Mapping", "Long-Term Localisation"),
        metrics=("absolute trajectory error", "tracking robustness", "map accuracy"),
        workloads=("indoor and outdoor sequences", "drone flights", "handheld recordings"),
        baselines=("feature-based SLAM systems", "direct methods", "learned odometry baselines"),
        hardware=("an embedded GPU on a drone", "a handheld rig with a stereo camera"),
        fields=("Robotics", "Computer Vision"),
        style="ml",
    ),
    # --- Sciences --------------------------------------------------------
    Theme(
        name="Gravitational Waves",
        file="demo-sciences.xml",
        primary=("gr-qc", "astro-ph.HE"),
        cross=("astro-ph.CO", "astro-ph.IM"),
        rates=steady(0.9),
        hooks=(
            "Gravitational-wave observations of compact binary mergers now number in the hundreds, enough to study the population rather than single events.",
            "Pulsar timing arrays are sensitive to a background of gravitational waves at nanohertz frequencies.",
            "The spins of a binary black hole carry information about how the pair formed, but they are poorly measured for most events.",
            "Searches for gravitational waves from spinning neutron stars are limited by the computing cost of covering the parameter space.",
        ),
        titles=(
            "Gravitational-Wave Constraints on {Target}",
            "{Tech} for {Target}",
            "Hierarchical Inference for {Target} with {Tech}",
            r"A $3.2\sigma$ Hint of Precession in {Target}",
            "Fast Parameter Estimation for {Target} with {Tech}",
            "Revisiting {Target} with {Tech}",
        ),
        targets=("Binary Black Hole Populations", "Neutron Star Mergers", "Continuous-Wave Searches", "the Nanohertz Background", "Eccentric Binaries"),
        ideas=(
            "fits a non-parametric spin distribution to the catalogue with a hierarchical Bayesian model",
            "models red noise in each pulsar jointly with the common signal",
            "uses normalising flows trained on simulated signals to produce posteriors in seconds",
        ),
        techniques=("Normalising Flows", "Hierarchical Bayesian Models", "Gaussian-Process Noise Models"),
        results=(
            r"We find a preference for aligned spins at the $3.1\sigma$ level and a merger rate of ${count}^{+12}_{-9}\,\mathrm{Gpc^{-3}\,yr^{-1}}$.",
            r"Posteriors agree with standard samplers to within {small}\% while being ${speedup}\times 10^3$ times faster.",
            r"The inferred amplitude $A = 2.{small}\times 10^{-15}$ is consistent with a population of supermassive black-hole binaries.",
        ),
        fields=("Physics", "Astrophysics", "Gravitational Physics"),
        big_team_rate=0.5,
        big_team=(20, 40),
        style="science",
    ),
    Theme(
        name="Quantum Error Correction",
        file="demo-sciences.xml",
        primary=("quant-ph",),
        cross=("cs.ET", "cs.IT"),
        rates=ramp(0.4, 1.4),
        links=(
            ("FPGA Acceleration", "We implement the decoder as an FPGA accelerator to demonstrate real-time operation.", "cs.AR"),
        ),
        hooks=(
            "Quantum error correction encodes a logical qubit in many physical ones, and its overhead decides when useful quantum computers arrive.",
            "The surface code tolerates high error rates but needs a decoder fast enough to keep up with the hardware.",
            "Fault-tolerant quantum computation requires logical operations whose errors stay below those of idle memory.",
        ),
        titles=(
            "Real-Time Decoding of {Target} with {Tech}",
            "{Tech} for {Target}",
            "Logical Error Rates Below $10^{-6}$ for {Target}",
            "Fault-Tolerant Operations on {Target}",
            "Resource Estimates for {Target}",
        ),
        targets=("the Surface Code", "Biased-Noise Qubits", "Lattice Surgery", "Logical Memories", "Color Codes", "Quantum LDPC Codes"),
        ideas=(
            "decodes syndromes with a union-find variant whose running time is almost linear in the code size",
            "uses biased-noise qubits and tailors the code to the dominant error",
            "schedules lattice surgery to reduce the number of ancilla patches",
        ),
        techniques=("Union-Find Decoders", "Bias-Tailored Codes", "Neural Decoders"),
        results=(
            r"Simulations show a threshold of {small}.{count}\% under circuit-level noise and a decoding time of $\mathcal{O}(n\log n)$ in the number of qubits $n$.",
            r"At distance $d = 11$, the logical error rate falls by ${speedup}\times$ relative to the standard code.",
            r"The decoder keeps up with a 1 $\mu$s syndrome cycle on an FPGA-class budget.",
        ),
        fields=("Physics", "Quantum Information", "Quantum Engineering"),
        style="science",
    ),
    Theme(
        name="Optimal Transport",
        file="demo-sciences.xml",
        primary=("math.OC", "math.PR"),
        cross=("stat.ML", "cs.LG", "math.AP"),
        rates=steady(0.7),
        links=(
            ("Single-Cell Genomics", "Applied to single-cell time courses, the method recovers known differentiation paths.", "q-bio.QM"),
            ("Causal Inference", "We also use transport maps to estimate a treatment effect on the whole outcome distribution.", "stat.ME"),
        ),
        hooks=(
            "Optimal transport compares probability distributions by the least cost of moving one onto the other.",
            "The Wasserstein distance metrises weak convergence, but computing it exactly scales poorly with the number of samples.",
            "Entropic regularisation and Sinkhorn iterations make optimal transport fast, at the price of a bias that must be controlled.",
        ),
        titles=(
            "Sharp Rates for {Target}",
            "{Tech} for {Target}",
            r"Computing {Target} in $\mathcal{O}(n\log n)$ Time",
            "Stability of {Target} under Marginal Perturbations",
            "On the Sample Complexity of {Target}",
        ),
        targets=("Entropic Optimal Transport", "Unbalanced Optimal Transport", "Wasserstein Barycenters", "Gromov-Wasserstein Problems", "Transport Maps"),
        ideas=(
            "combines multiscale Sinkhorn iterations with a sparse kernel truncation",
            "proves stability estimates for transport maps under perturbations of the marginals",
            "reduces the barycenter problem to a sequence of one-dimensional transport problems",
        ),
        techniques=("Multiscale Sinkhorn Iterations", "Sliced Transport", "Entropic Regularisation"),
        results=(
            r"We prove that the estimator converges at rate $n^{-1/2}$, independent of the dimension, when the regularisation is fixed.",
            r"The algorithm needs $O(n^2)$ memory in the worst case but $\mathcal{O}(n\log n)$ on well-separated data.",
            r"Experiments on {count} datasets show a ${speedup}\times$ speed-up over standard solvers at equal accuracy.",
        ),
        fields=("Mathematics", "Applied Mathematics", "Statistics"),
        style="science",
    ),
    Theme(
        name="Single-Cell Genomics",
        file="demo-sciences.xml",
        primary=("q-bio.GN", "q-bio.QM"),
        cross=("cs.LG", "stat.AP"),
        rates=steady(0.7),
        links=(
            ("Optimal Transport", "Cells are matched across time points by optimal transport between their expression profiles.", "stat.ML"),
            ("Causal Inference", "Perturbation screens let us estimate the causal effect of each gene knock-out on expression.", "stat.ME"),
        ),
        hooks=(
            "Single-cell RNA sequencing measures gene expression in thousands of individual cells, revealing states that bulk measurements average away.",
            "Spatial transcriptomics adds the position of each measurement, but at a resolution coarser than a single cell.",
            "Integrating scRNA-seq datasets from different labs requires removing batch effects without erasing biology.",
        ),
        titles=(
            "{Tech} for {Target}",
            "Scalable {Target} with {Tech}",
            "Benchmarking {Target}",
            "Uncertainty-Aware {Target}",
            "A Foundation Model for {Target}",
        ),
        targets=("Single-Cell Data Integration", "Spatial Transcriptomics Deconvolution", "Cell Trajectory Inference", "Perturbation Response Prediction", "Cell-Type Annotation"),
        ideas=(
            "learns a shared latent space with a variational autoencoder conditioned on batch labels",
            "deconvolves each spot into cell types using a reference atlas and a spatial smoothness prior",
            "infers developmental trajectories from snapshots by matching cells across time points",
        ),
        techniques=("Conditional Variational Autoencoders", "Spatial Priors", "Transport-Based Trajectory Inference"),
        results=(
            r"Across {count} datasets, it improves cell-type label transfer accuracy by {pct}\% while preserving rare populations.",
            r"The model scales to $10^6$ cells, with training time linear in the number of cells.",
            r"Held-out genes are predicted with a correlation of 0.{pct} on average.",
        ),
        fields=("Computational Biology", "Genomics", "Biostatistics"),
        style="science",
    ),
    Theme(
        name="Mechanism Design and Auctions",
        file="demo-sciences.xml",
        primary=("cs.GT", "econ.TH"),
        cross=("cs.MA", "econ.GN"),
        rates=steady(0.6),
        links=(
            ("Federated Learning", "We apply the mechanism to reward clients for contributing data in federated learning.", "cs.LG"),
            ("Reinforcement Learning", "Bidders in our experiments learn with reinforcement learning rather than best-responding.", "cs.LG"),
        ),
        hooks=(
            "Mechanism design asks how to set the rules of a market so that participants acting in their own interest reach a good outcome.",
            "Auction formats used for online advertising are rarely incentive compatible once budgets and learning bidders are taken into account.",
            "Selling several items to buyers with private values is a classic problem where the optimal auction remains poorly understood.",
        ),
        titles=(
            "Simple Mechanisms for {Target}",
            "{Tech} in {Target}",
            r"A $\frac{1}{2}$-Approximation for {Target}",
            "Learning Reserve Prices for {Target} with {Tech}",
            "Incentive Compatibility with {Target}",
        ),
        targets=("Budgeted Bidders", "Repeated Auctions", "Multi-Item Sales", "Interdependent Values", "Ad Auctions", "Procurement Markets"),
        ideas=(
            "studies pacing equilibria when bidders learn their bids over many rounds",
            "characterises incentive compatible mechanisms for buyers with interdependent values",
            "learns reserve prices from past bids while limiting how much bidders can gain by shading",
        ),
        techniques=("Pacing Equilibria", "No-Regret Learning", "Posted Pricing"),
        results=(
            r"We show that a posted-price mechanism recovers a $\frac{1}{2}$ fraction of the optimal revenue, and that this is tight.",
            r"Computing the equilibrium is PPAD-hard in general but takes $O(n^2)$ time for unit-demand buyers.",
            r"Simulations with {count} bidders show revenue within {small}\% of the benchmark.",
        ),
        fields=("Economics", "Computer Science", "Operations Research"),
        style="science",
    ),
    Theme(
        name="Causal Inference",
        file="demo-sciences.xml",
        primary=("stat.ME", "econ.EM"),
        cross=("stat.ML", "cs.LG"),
        rates=steady(0.9),
        links=(
            ("Reinforcement Learning", "The estimator also evaluates policies learned by reinforcement learning from logged data.", "cs.LG"),
            ("Single-Cell Genomics", "We illustrate the method on a single-cell perturbation screen.", "q-bio.GN"),
        ),
        hooks=(
            "Causal inference from observational data requires adjusting for confounders that also drive the choice of treatment.",
            "Heterogeneous treatment effect estimation asks not only whether a treatment works but for whom.",
            "Instrumental variable methods identify causal effects when confounding cannot be measured, provided the instrument is valid.",
        ),
        titles=(
            "Doubly Robust Estimation with {Target} via {Tech}",
            "{Tech} for Causal Inference under {Target}",
            "Inference with {Target} in High Dimensions",
            "Sensitivity Analysis for {Target}",
            "Estimating Causal Effects with {Target} using {Tech}",
        ),
        targets=("Heterogeneous Treatment Effects", "Interference", "Weak Instruments", "Unmeasured Confounding", "Staggered Adoption Designs"),
        ideas=(
            "combines outcome regression and propensity weighting with cross-fitting",
            "bounds the bias from unmeasured confounding with a single sensitivity parameter",
            "tests instrument validity with a conditional moment restriction",
        ),
        techniques=("Cross-Fitting", "Sensitivity Bounds", "Conformal Bounds"),
        results=(
            r"The estimator is $\sqrt{n}$-consistent and asymptotically normal under mild conditions on the nuisance estimators.",
            r"Simulations with {count} covariates show coverage close to the nominal 95\% where plug-in estimators reach {pct}\%.",
            r"In an application to a job-training programme, the estimated effect is {small}.{count} percentage points.",
        ),
        fields=("Statistics", "Economics", "Biostatistics"),
        style="science",
    ),
)

GIVEN_NAMES = (
    "Aiyana", "Bartosz", "Chiamaka", "Dagny", "Eero", "Farida", "Goran", "Hina", "Ilse", "Jorun",
    "Kaveh", "Leilani", "Matías", "Nadia", "Oluwaseun", "Priya", "Quentin", "Rasmus", "Saoirse", "Tomasz",
    "Ulla", "Vikram", "Wen", "Ximena", "Yaroslav", "Zainab", "Anouk", "Bilal", "Cosmin", "Dalia",
    "Emre", "Fenna", "Gideon", "Hyejin", "Itzel", "Jaakko", "Kiri", "Lorenzo", "Mei", "Nikolaj",
    "Odile", "Pavel", "Renske", "Siddharth", "Thandiwe", "Ugo", "Valentina", "Wiremu", "Yusra", "Zoltán",
    "Amaru", "Björn", "Carmela", "Desmond", "Esi", "Florin", "Gülşen", "Haruto", "Ines", "Jasper",
)

FAMILY_NAMES = (
    "Abernethy", "Bakshi", "Castellanos", "Dimitriou", "Ekwueme", "Fjeldstad", "Grabowski", "Halloran", "Iwasaki", "Jovanović",
    "Kowalczyk", "Lindqvist", "Mbeki", "Nakashima", "Okonkwo", "Pellegrini", "Quispe", "Rautio", "Sandoval", "Takahara",
    "Uddin", "Vasquez", "Wróblewski", "Xiao", "Yilmaz", "Zhelev", "Arslan", "Brennan", "Chaudhry", "Delacroix",
    "Eriksdottir", "Fonseca", "Ghosh", "Hartmann", "Ilunga", "Jankauskas", "Kiplagat", "Laurent", "Moreau", "Nwachukwu",
    "Oyelaran", "Pham", "Rahimi", "Szabó", "Tuominen", "Ulloa", "Van der Berg", "Wanjiru", "Yamada", "Zapata",
    "Achterberg", "Bouchard", "Cifuentes", "Dunmore", "Esposito", "Farrokhi", "Gallagher", "Horvath", "Ishikawa", "Kemal",
)

INSTITUTION_KINDS = (
    "University of {place}",
    "{place} Institute of Technology",
    "Institute for {field}, {place}",
    "Department of {field}, University of {place}",
    "School of {field}, {place} University",
    "Laboratory for {field}, {place}",
    "{company}, {place}",
)

PLACES = (
    "Aldermoor", "Vesterholm", "Port Caddon", "Linmere", "Saint-Orvais", "Quorra Bay", "Hallendorf", "Tamsinfield",
    "Río Alcántar", "Kairamo", "Westbrin", "Ulvik Ridge", "Marrowgate", "Sunhaven", "Dravetsk", "Nuevo Calder",
    "Pemberlow", "Isenmark", "Orlu Heights", "Kestler Falls",
)

COMPANIES = (
    "Quillstone Research", "Brightlattice Labs", "Northcove Computing", "Tidewater AI", "Parallax Systems",
    "Emberline Semiconductor",
)

VENUES = (
    "the Symposium on Parallel Runtimes (SPR '27)",
    "the Conference on Learning Systems (CLS 2027)",
    "the Workshop on Efficient Inference",
    "the International Meeting on Embedded Intelligence",
    "the Annual Conference on Computational Science",
)

JOURNALS = (
    ("Journal of Invented Systems", "jis"),
    ("Transactions on Imaginary Computing", "tic"),
    ("Invented Physics Letters B", "iplb"),
    ("Annals of Fictional Statistics", "afs"),
    ("Review of Made-Up Economics", "rmue"),
)

SYLLABLES_START = ("Ar", "Bel", "Cor", "Dra", "El", "Fen", "Gal", "Hal", "Ist", "Jor", "Kal", "Lum", "Mor", "Nim", "Or", "Pel", "Quin", "Ros", "Sil", "Tor", "Ves", "Wyn", "Zel")
SYLLABLES_END = ("ex", "ion", "ara", "ith", "ode", "una", "ix", "or", "ant", "elle", "is", "yx", "ane", "oma")

PLACEHOLDER = re.compile(r"\{(sys|Sys|tech|Tech|target|Target|idea|metric|workload|baseline|hw|unit|speedup|pct|count|small)\}")


@dataclass
class Paper:
    theme: Theme
    published: datetime
    title: str = ""
    abstract: str = ""
    authors: list[tuple[str, list[str]]] = field(default_factory=list)
    primary: str = ""
    categories: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    version: int = 1
    updated: datetime | None = None
    comment: str = ""
    journal_ref: str = ""
    doi: str = ""
    arxiv_id: str = ""


class Writer:
    """Builds invented papers from the themes with one seeded random generator."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.by_name = {theme.name: theme for theme in THEMES}
        self.titles: set[str] = set()

    def fill(self, template: str, theme: Theme, system: str) -> str:
        rng = self.rng

        def value(match: re.Match[str]) -> str:
            key = match.group(1)
            if key in ("sys", "Sys"):
                return system
            if key == "speedup":
                return f"{rng.uniform(1.3, 9.5):.1f}"
            if key == "pct":
                return str(rng.randint(8, 72))
            if key == "count":
                return str(rng.randint(4, 48))
            if key == "small":
                return str(rng.randint(1, 5))
            if key == "unit":
                return "tasks" if theme.style == "systems" else "updates"
            pools = {
                "tech": theme.techniques, "Tech": theme.techniques, "target": theme.targets,
                "Target": theme.targets, "idea": theme.ideas, "metric": theme.metrics,
                "workload": theme.workloads, "baseline": theme.baselines, "hw": theme.hardware,
            }
            choice = rng.choice(pools[key])
            return _sentence_case(choice) if key in ("tech", "target") else choice

        return PLACEHOLDER.sub(value, template)

    def system_name(self) -> str:
        return self.rng.choice(SYLLABLES_START) + self.rng.choice(SYLLABLES_END)

    def papers(self) -> list[Paper]:
        papers: list[Paper] = []
        for theme in THEMES:
            for week, rate in enumerate(theme.rates):
                count = int(rate) + (1 if self.rng.random() < rate - int(rate) else 0)
                for _ in range(count):
                    papers.append(self.paper(theme, self.moment_in_week(week)))
        papers.sort(key=lambda paper: paper.published)
        self.assign_ids(papers)
        return papers

    def moment_in_week(self, week: int) -> datetime:
        """A submission time in week `week` (0 = oldest) of the WEEKS weeks before the epoch; weekdays likelier."""
        start = EPOCH - timedelta(weeks=WEEKS - week)
        while True:
            moment = start + timedelta(seconds=self.rng.randrange(7 * 86_400))
            if moment < EPOCH and (moment.weekday() < 5 or self.rng.random() < 0.3):
                return moment

    def paper(self, theme: Theme, published: datetime) -> Paper:
        rng = self.rng
        paper = Paper(theme=theme, published=published)
        system = self.system_name()
        paper.primary = rng.choice(theme.primary)
        categories = [paper.primary] + [c for c in rng.sample(theme.cross, rng.randint(0, min(2, len(theme.cross)))) if c != paper.primary]
        paper.topics = [theme.name]
        sentences = [rng.choice(theme.hooks)]
        if theme.style == "science":
            sentences.append(self.fill(rng.choice(("Our method {idea}.", "We propose an approach that {idea}.", "The framework we introduce {idea}.")), theme, system))
            sentences += [self.fill(text, theme, system) for text in rng.sample(theme.results, 2)]
        else:
            sentences.append(self.fill(rng.choice(METHODS), theme, system))
            if rng.random() < 0.5:
                sentences.append(self.fill(rng.choice(SECOND_METHODS), theme, system))
            results = theme.results or (SYSTEM_RESULTS if theme.style == "systems" else ML_RESULTS)
            sentences += [self.fill(text, theme, system) for text in rng.sample(results, 2)]
        if theme.links and rng.random() < CROSS_TOPIC_RATE:
            neighbour, sentence, category = rng.choice(theme.links)
            sentences.insert(len(sentences) - 1, sentence)
            if category not in categories:
                categories.append(category)
            paper.topics.append(neighbour)
        closing = self.fill(rng.choice(CLOSINGS), theme, system) if theme.style != "science" else ""
        if closing:
            sentences.append(closing)
        paper.abstract = " ".join(sentences)
        paper.categories = categories
        paper.title = self.title(theme, system)
        paper.authors = self.authors(theme)
        self.add_history(paper)
        return paper

    def title(self, theme: Theme, system: str) -> str:
        """A title no earlier paper has (a few tries, then whatever came last)."""
        for _ in range(20):
            title = self.fill(self.rng.choice(theme.titles or SYSTEM_TITLES), theme, system)
            if title not in self.titles:
                break
        self.titles.add(title)
        return title

    def authors(self, theme: Theme) -> list[tuple[str, list[str]]]:
        rng = self.rng
        if rng.random() < theme.big_team_rate:
            count = rng.randint(*theme.big_team)
        else:
            count = rng.choices(range(1, 9), weights=(3, 8, 12, 12, 9, 6, 4, 3))[0]
        institutions = [self.institution(theme) for _ in range(rng.randint(1, 3 if count < 12 else 7))]
        with_affiliations = rng.random() < 0.8
        names: list[str] = []
        while len(names) < count:
            name = f"{rng.choice(GIVEN_NAMES)} {rng.choice(FAMILY_NAMES)}"
            if name not in names:
                names.append(name)
        authors = []
        for name in names:
            affiliations: list[str] = []
            if with_affiliations and rng.random() < 0.9:
                affiliations = rng.sample(institutions, min(len(institutions), rng.choices((1, 2, 3), weights=(80, 15, 5))[0]))
            authors.append((name, affiliations))
        return authors

    def institution(self, theme: Theme) -> str:
        template = self.rng.choice(INSTITUTION_KINDS)
        return template.format(place=self.rng.choice(PLACES), field=self.rng.choice(theme.fields), company=self.rng.choice(COMPANIES))

    def add_history(self, paper: Paper) -> None:
        rng = self.rng
        paper.version = rng.choices((1, 2, 3), weights=(78, 17, 5))[0]
        if EPOCH - paper.published < timedelta(days=4):
            paper.version = 1
        paper.updated = paper.published
        for _ in range(paper.version - 1):
            later = paper.updated + timedelta(days=rng.randint(2, 20), seconds=rng.randrange(86_400))
            paper.updated = min(later, EPOCH - timedelta(minutes=rng.randint(5, 600)))
        if paper.updated < paper.published:
            paper.updated = paper.published
        parts = []
        if rng.random() < 0.75:
            parts.append(f"{rng.randint(6, 48)} pages, {rng.randint(2, 16)} figures")
            if rng.random() < 0.4:
                parts[-1] += f", {rng.randint(1, 6)} tables"
        if rng.random() < 0.2:
            parts.append(f"accepted at {rng.choice(VENUES)}")
        if paper.version > 1 and rng.random() < 0.6:
            parts.append(f"v{paper.version}: {rng.choice(('extended evaluation', 'corrected typos in Section 4', 'added a baseline', 'camera-ready version'))}")
        paper.comment = "; ".join(parts)
        if rng.random() < 0.12:
            journal, short = rng.choice(JOURNALS)
            volume = rng.randint(3, 60)
            first_page = rng.randint(1, 900)
            paper.journal_ref = f"{journal} {volume} ({paper.published.year}) {first_page}-{first_page + rng.randint(8, 30)}"
            paper.doi = f"10.99999/{short}.{paper.published.year}.{rng.randint(1000, 99999):05d}"
        elif rng.random() < 0.05:
            paper.doi = f"10.99999/preprint.{rng.randint(100000, 999999)}"

    def assign_ids(self, papers: list[Paper]) -> None:
        """arXiv-style ids, increasing with submission time within each month."""
        by_month: dict[str, list[Paper]] = {}
        for paper in papers:
            by_month.setdefault(paper.published.strftime("%y%m"), []).append(paper)
        for month, members in by_month.items():
            numbers = sorted(self.rng.sample(range(100, 25000), len(members)))
            for paper, number in zip(members, numbers):
                paper.arxiv_id = f"{month}.{number:05d}"


def _sentence_case(phrase: str) -> str:
    """`Chunked Prefill for LLM Serving` -> `chunked prefill for LLM serving`.

    Acronyms (two or more capitals in a hyphen-separated part: LLM, GPUs, ReRAM,
    Non-IID) keep their case."""

    def part(text: str) -> str:
        return text if sum(c.isupper() for c in text) >= 2 else text.lower()

    return " ".join("-".join(part(piece) for piece in word.split("-")) for word in phrase.split())


def render_feed(papers: list[Paper], query: str) -> str:
    """One arXiv API response, in the layout export.arxiv.org returns."""
    params = f"search_query={query}&id_list=&start=0&max_results={len(papers)}"
    feed_id = base64.urlsafe_b64encode(hashlib.sha1(params.encode()).digest()).decode().rstrip("=")
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<feed xmlns="http://www.w3.org/2005/Atom">',
        f'  <link href={quoteattr("http://arxiv.org/api/query?" + quote(params, safe=""))} rel="self" type="application/atom+xml"/>',
        f'  <title type="html">ArXiv Query: {escape(params)}</title>',
        f"  <id>http://arxiv.org/api/{feed_id}</id>",
        f"  <updated>{EPOCH:%Y-%m-%d}T00:00:00-05:00</updated>",
        f'  <opensearch:totalResults xmlns:opensearch="{OPENSEARCH_NS}">{len(papers)}</opensearch:totalResults>',
        f'  <opensearch:startIndex xmlns:opensearch="{OPENSEARCH_NS}">0</opensearch:startIndex>',
        f'  <opensearch:itemsPerPage xmlns:opensearch="{OPENSEARCH_NS}">{len(papers)}</opensearch:itemsPerPage>',
    ]
    for paper in sorted(papers, key=lambda p: p.published, reverse=True):
        lines += render_entry(paper)
    lines.append("</feed>")
    return "\n".join(lines) + "\n"


def render_entry(paper: Paper) -> list[str]:
    versioned = f"{paper.arxiv_id}v{paper.version}"
    lines = [
        "  <entry>",
        f"    <id>http://arxiv.org/abs/{versioned}</id>",
        f"    <updated>{_stamp(paper.updated or paper.published)}</updated>",
        f"    <published>{_stamp(paper.published)}</published>",
        f"    <title>{escape(_wrap_title(paper.title))}</title>",
        f"    <summary>{escape(_wrap_abstract(paper.abstract))}</summary>",
    ]
    for name, affiliations in paper.authors:
        lines.append("    <author>")
        lines.append(f"      <name>{escape(name)}</name>")
        for affiliation in affiliations:
            lines.append(f'      <arxiv:affiliation xmlns:arxiv="{ARXIV_NS}">{escape(affiliation)}</arxiv:affiliation>')
        lines.append("    </author>")
    if paper.doi:
        lines.append(f'    <arxiv:doi xmlns:arxiv="{ARXIV_NS}">{escape(paper.doi)}</arxiv:doi>')
        lines.append(f'    <link title="doi" href={quoteattr("http://dx.doi.org/" + paper.doi)} rel="related"/>')
    if paper.comment:
        lines.append(f'    <arxiv:comment xmlns:arxiv="{ARXIV_NS}">{escape(paper.comment)}</arxiv:comment>')
    if paper.journal_ref:
        lines.append(f'    <arxiv:journal_ref xmlns:arxiv="{ARXIV_NS}">{escape(paper.journal_ref)}</arxiv:journal_ref>')
    lines += [
        f'    <link href="http://arxiv.org/abs/{versioned}" rel="alternate" type="text/html"/>',
        f'    <link title="pdf" href="http://arxiv.org/pdf/{versioned}" rel="related" type="application/pdf"/>',
        f'    <arxiv:primary_category xmlns:arxiv="{ARXIV_NS}" term="{paper.primary}" scheme="{ARXIV_NS}"/>',
    ]
    lines += [f'    <category term="{category}" scheme="{ARXIV_NS}"/>' for category in paper.categories]
    lines.append("  </entry>")
    return lines


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _wrap_title(title: str) -> str:
    return "\n  ".join(textwrap.wrap(title, 76, break_long_words=False, break_on_hyphens=False))


def _wrap_abstract(abstract: str) -> str:
    """The API's hard-wrapped summary: two leading spaces, lines under 80 columns."""
    return "  " + "\n".join(textwrap.wrap(abstract, 79, initial_indent="", break_long_words=False, break_on_hyphens=False)) + "\n"


def build(out_dir: Path, seed: int = SEED) -> dict:
    """Write the demo files and the manifest into `out_dir`; return the manifest."""
    writer = Writer(seed)
    papers = writer.papers()
    files: dict[str, list[Paper]] = {}
    for theme in THEMES:
        files.setdefault(theme.file, [])
    for paper in papers:
        files[paper.theme.file].append(paper)
    # Cross-topic papers whose second topic lives in another file are, like a
    # real API answer for that topic, sometimes also in that file.
    placed = {name: {paper.arxiv_id for paper in members} for name, members in files.items()}
    for paper in papers:
        for name in paper.topics[1:]:
            other = writer.by_name[name].file
            if paper.arxiv_id not in placed[other] and writer.rng.random() < 0.35:
                files[other].append(paper)
                placed[other].add(paper.arxiv_id)
    out_dir.mkdir(parents=True, exist_ok=True)
    manifest_files = []
    for name, members in files.items():
        categories = sorted({theme_cat for theme in THEMES if theme.file == name for theme_cat in theme.primary})
        query = " OR ".join(f"cat:{category}" for category in categories)
        data = render_feed(members, query).encode("utf-8")
        (out_dir / name).write_bytes(data)
        manifest_files.append({"file": name, "entries": len(members), "bytes": len(data)})
    topics: dict[str, int] = {theme.name: 0 for theme in THEMES}
    for paper in papers:
        for name in paper.topics:
            topics[name] += 1
    manifest = {
        "generator": "scripts/make_demo.py",
        "seed": seed,
        "epoch": _stamp(EPOCH),
        "weeks": WEEKS,
        "papers": len(papers),
        "files": manifest_files,
        "topics": topics,
    }
    (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return manifest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out_dir", nargs="?", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    manifest = build(args.out_dir, args.seed)
    size = sum(entry["bytes"] for entry in manifest["files"])
    print(f"wrote {manifest['papers']} papers in {len(manifest['files'])} files ({size / 1e6:.2f} MB) to {args.out_dir}")


if __name__ == "__main__":
    main()
