/* An empty program, linked as the cmdgpu command is (statically when the
 * command is): what any process costs this host to start and end. bench_cmd_run
 * measures it beside the command (docs/performance.md, "The command's
 * fixed costs"). */
int main(void)
{
    return 0;
}
