import csv, gzip, sys
rows=[]
for p in ("00","01","02"):
    pts=[l.split() for l in open("part_"+p)]
    data={}
    order=[]
    for r in csv.reader(l for l in gzip.open("ncu_part_%s.csv.gz"%p,"rt") if l.startswith('"')):
        if r[0]=="ID": continue
        i=int(r[0])
        if i not in data: data[i]={}; order.append(i)
        data[i][r[12]]=r[14].replace(",","")
    assert len(order)==len(pts),(p,len(order),len(pts))
    for i,pt in zip(order,pts):
        d=data[i]
        rows.append(pt+[d["launch__shared_mem_config_size"],d["launch__shared_mem_per_block_dynamic"],d["launch__occupancy_limit_shared_mem"],
          d["sm__warps_active.avg.pct_of_peak_sustained_active"],d["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"],d["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"],
          d["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"],d["l1tex__t_sector_hit_rate.pct"],d["lts__t_sector_hit_rate.pct"],d["sm__cycles_active.avg"]])
w=csv.writer(sys.stdout,lineterminator="\n")
w.writerow("pattern,carveout_pct,footprint_bytes,blocks_per_sm,smem_config_bytes,dyn_smem_per_block,occupancy_limit_smem,achieved_occupancy_pct,l1_requests,l1_sectors,l1_sector_hits,l1_hit_pct,l2_hit_pct,sm_cycles_active".split(","))
for r in rows: w.writerow(r)
