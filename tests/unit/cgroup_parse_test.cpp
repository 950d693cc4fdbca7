// /proc/PID/cgroup texts as each runtime writes them (cgroup v2, v1 and hybrid).
#include <gtest/gtest.h>

#include <string>

#include "musatop/collection/procfs/cgroup_parse.hpp"

using musatop::Attribution;
using musatop::procfs::parse_cgroup_attribution;
using musatop::procfs::parse_cgroup_mounts;
using musatop::procfs::trusted_cgroup_text;

namespace {

const std::string kId64 = "4e1f0c2a9b7d3e5f6a8c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a";
const std::string kId2 = "aa11bb22cc33dd44ee55ff6600778899aabbccddeeff00112233445566778899";

Attribution v2(const std::string& path) { return parse_cgroup_attribution("0::" + path + "\n"); }

}  // namespace

TEST(CgroupAttribution, DockerUnderTheSystemdAndTheCgroupfsDriver) {
    const auto systemd = v2("/system.slice/docker-" + kId64 + ".scope");
    EXPECT_EQ(systemd.container_runtime, "docker");
    EXPECT_EQ(systemd.container_id, kId64);
    EXPECT_EQ(systemd.systemd_unit, "docker-" + kId64 + ".scope");
    const auto v1 = parse_cgroup_attribution("12:pids:/docker/" + kId64 + "\n11:memory:/docker/" + kId64 +
                                             "\n1:name=systemd:/docker/" + kId64 + "\n0::/\n");
    EXPECT_EQ(v1.container_runtime, "docker");
    EXPECT_EQ(v1.container_id, kId64);
    EXPECT_FALSE(v1.systemd_unit);  // the v2 line is "/" and the systemd line names no unit
}

TEST(CgroupAttribution, ContainerdCriOPodmanAndLxc) {
    const auto containerd =
        v2("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1a2b3c4d_5e6f_7a8b_9c0d_1e2f3a4b5c6d.slice/"
           "cri-containerd-" +
           kId64 + ".scope");
    EXPECT_EQ(containerd.container_runtime, "containerd");
    EXPECT_EQ(containerd.container_id, kId64);
    EXPECT_EQ(containerd.pod_uid, "1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d");
    EXPECT_EQ(containerd.pod_qos_class, "burstable");

    const auto crio =
        v2("/kubepods.slice/kubepods-besteffort.slice/"
           "kubepods-besteffort-pod0f0e0d0c_0b0a_0908_0706_050403020100.slice/crio-" +
           kId64 + ".scope");
    EXPECT_EQ(crio.container_runtime, "cri-o");
    EXPECT_EQ(crio.pod_qos_class, "besteffort");
    EXPECT_EQ(crio.pod_uid, "0f0e0d0c-0b0a-0908-0706-050403020100");
    // conmon, the monitor beside the container, is not the container
    EXPECT_FALSE(v2("/system.slice/crio-conmon-" + kId64 + ".scope").container_id);

    const auto podman =
        v2("/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" + kId64 + ".scope/container");
    EXPECT_EQ(podman.container_runtime, "podman");
    EXPECT_EQ(podman.container_id, kId64);
    const auto podman_v1 = parse_cgroup_attribution("3:cpu:/libpod_parent/libpod-" + kId64 + "\n");
    EXPECT_EQ(podman_v1.container_runtime, "podman");

    for (const std::string path : {"/lxc.payload.build-box", "/lxc/build-box", "/lxc.payload/build-box"}) {
        const auto lxc = v2(path);
        EXPECT_EQ(lxc.container_runtime, "lxc") << path;
        EXPECT_EQ(lxc.container_id, "build-box") << path;
    }
}

TEST(CgroupAttribution, KubernetesGuaranteedPodAndTheCgroupfsDriver) {
    const auto guaranteed =
        v2("/kubepods.slice/kubepods-pod9a8b7c6d_5e4f_3a2b_1c0d_9e8f7a6b5c4d.slice/cri-containerd-" + kId64 + ".scope");
    EXPECT_EQ(guaranteed.pod_qos_class, "guaranteed");
    EXPECT_EQ(guaranteed.pod_uid, "9a8b7c6d-5e4f-3a2b-1c0d-9e8f7a6b5c4d");
    // cgroup v1, cgroupfs driver: the runtime is not in the path, the container id is
    const auto cgroupfs = parse_cgroup_attribution(
        "4:memory:/kubepods/burstable/pod9a8b7c6d-5e4f-3a2b-1c0d-9e8f7a6b5c4d/" + kId64 + "\n");
    EXPECT_EQ(cgroupfs.pod_uid, "9a8b7c6d-5e4f-3a2b-1c0d-9e8f7a6b5c4d");
    EXPECT_EQ(cgroupfs.pod_qos_class, "burstable");
    EXPECT_EQ(cgroupfs.container_id, kId64);
    EXPECT_FALSE(cgroupfs.container_runtime);
}

TEST(CgroupAttribution, SlurmJobsAndSteps) {
    const auto v1 = parse_cgroup_attribution(
        "9:freezer:/slurm/uid_1000/job_123456/step_0\n"
        "5:devices:/slurm/uid_1000/job_123456/step_0/task_1\n"
        "1:name=systemd:/system.slice/slurmd.service\n");
    EXPECT_EQ(v1.slurm_job_id, 123456);
    EXPECT_EQ(v1.slurm_step, "0");
    EXPECT_EQ(v1.systemd_unit, "slurmd.service");
    const auto v2_batch = v2("/system.slice/slurmstepd.scope/job_77/step_batch/user/task_0");
    EXPECT_EQ(v2_batch.slurm_job_id, 77);
    EXPECT_EQ(v2_batch.slurm_step, "batch");
    const auto multi_slurmd = v2("/system.slice/slurmstepd_node07.scope/job_9/step_extern/user/task_special");
    EXPECT_EQ(multi_slurmd.slurm_job_id, 9);
    EXPECT_EQ(multi_slurmd.slurm_step, "extern");
    EXPECT_FALSE(v2("/user.slice/job_5").slurm_job_id);  // not under Slurm
    EXPECT_FALSE(v2("/slurm/uid_0/job_notanumber/step_0").slurm_job_id);
}

TEST(CgroupAttribution, SystemdUnitsSessionsAndUserApps) {
    EXPECT_EQ(v2("/system.slice/ollama.service").systemd_unit, "ollama.service");
    EXPECT_EQ(v2("/user.slice/user-1000.slice/session-3.scope").systemd_unit, "session-3.scope");
    EXPECT_EQ(
        v2("/user.slice/user-1000.slice/user@1000.service/app.slice/app-org.gnome.Terminal.slice/vte-spawn-5d1c.scope")
            .systemd_unit,
        "vte-spawn-5d1c.scope");
    EXPECT_EQ(v2("/init.scope").systemd_unit, "init.scope");
    const auto none = v2("/");
    EXPECT_EQ(none, Attribution{});
    EXPECT_EQ(parse_cgroup_attribution(""), Attribution{});
}

TEST(CgroupAttribution, NestedContainersGiveTheInnermost) {
    const auto nested = v2("/system.slice/docker-" + kId64 + ".scope/docker/" + kId2);
    EXPECT_EQ(nested.container_runtime, "docker");
    EXPECT_EQ(nested.container_id, kId2);
    const auto pod_in_lxc = v2(
        "/lxc.payload.k8s-node/kubepods.slice/kubepods-pod11112222_3333_4444_5555_666677778888.slice/cri-containerd-" +
        kId2 + ".scope");
    EXPECT_EQ(pod_in_lxc.container_runtime, "containerd");
    EXPECT_EQ(pod_in_lxc.container_id, kId2);
    EXPECT_EQ(pod_in_lxc.pod_uid, "11112222-3333-4444-5555-666677778888");
}

TEST(CgroupAttribution, HostileNamesAreCutAndCleaned) {
    const auto escape = v2("/lxc.payload.\x1b]0;pwned\x07evil");
    ASSERT_TRUE(escape.container_id);
    EXPECT_EQ(escape.container_id->find('\x1b'), std::string::npos);
    EXPECT_EQ(escape.container_id->find('\x07'), std::string::npos);
    const auto unit = v2("/system.slice/" + std::string(5000, 'a') + ".service");
    ASSERT_TRUE(unit.systemd_unit);
    EXPECT_LE(unit.systemd_unit->size(), 255u);
    // A docker-looking scope whose id is not hex is a unit, never a container id.
    const auto fake = v2("/system.slice/docker-zz;rm -rf.scope");
    EXPECT_FALSE(fake.container_id);
    EXPECT_FALSE(v2("/slurm/uid_0/job_99999999999999999999999/step_0").slurm_job_id);  // overflow
    EXPECT_EQ(parse_cgroup_attribution("garbage\n::\nx:y:z\n:::/docker/" + kId64 + "\n"), Attribution{});
}

TEST(CgroupAttribution, MountsFromMountinfo) {
    const auto mounts = parse_cgroup_mounts(
        "25 1 0:22 / /sys/fs/cgroup ro,nosuid - tmpfs tmpfs ro,mode=755\n"
        "26 25 0:23 / /sys/fs/cgroup/unified rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"
        "27 25 0:24 / /sys/fs/cgroup/systemd rw - cgroup cgroup rw,xattr,name=systemd\n"
        "28 25 0:25 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n");
    ASSERT_EQ(mounts.size(), 3u);
    EXPECT_EQ(mounts[0].options, "");
    EXPECT_EQ(mounts[0].directory, "/sys/fs/cgroup/unified");
    EXPECT_NE(mounts[1].options.find("name=systemd"), std::string::npos);
    EXPECT_EQ(mounts[2].options, "cpu,cpuacct");
    EXPECT_EQ(mounts[2].directory, "/sys/fs/cgroup/cpu,cpuacct");
}

// A job's delegated subtree names folders as it likes: what lies below the first
// folder root did not make is not read, so it cannot claim another job or pod.
TEST(CgroupAttribution, OnlyWhatRootMadeNamesTheOwner) {
    // Job 77's step delegates user/ to the job, which made slurm/job_4242 in it.
    const std::string text = "0::/system.slice/slurmstepd.scope/job_77/step_1/user/slurm/job_4242/step_0\n";
    const auto root_made = [](std::string_view controllers, std::string_view prefix) {
        EXPECT_EQ(controllers, "");
        return prefix.find("/user") == std::string_view::npos;
    };
    EXPECT_EQ(parse_cgroup_attribution(text).slurm_job_id, 4242);  // what it fooled before
    const std::string trusted = trusted_cgroup_text(text, root_made);
    EXPECT_EQ(trusted, "0::/system.slice/slurmstepd.scope/job_77/step_1\n");
    const auto a = parse_cgroup_attribution(trusted);
    EXPECT_EQ(a.slurm_job_id, 77);  // the real job
    EXPECT_EQ(a.slurm_step, "1");
    EXPECT_EQ(trusted_cgroup_text("0::/a/b\n", [](auto, auto) { return false; }), "0::/\n");
    EXPECT_EQ(trusted_cgroup_text("0::/\n", [](auto, auto) { return true; }), "0::/\n");
    EXPECT_EQ(trusted_cgroup_text("1:name=systemd:/a/b\n", [](auto, auto) { return true; }), "1:name=systemd:/a/b\n");
}
